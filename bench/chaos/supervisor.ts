import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A service process kept running, as a container's restart policy would: started, restarted at
 * once whenever it dies, and killed the hard way (SIGKILL) when the chaos says so. The process
 * says `ready` on stdout once its workers are created; its stderr is kept (the last 8 KiB) for
 * when something goes wrong.
 */
export class Supervised {
  readonly name: string;
  starts = 0;
  kills = 0;
  /** Exits nobody asked for (not a kill of ours, not the stop). */
  crashes = 0;
  #child: ChildProcess | null = null;
  #ready = false;
  #stopping = false;
  #stderr = '';
  readonly #command: { script: string; args: string[]; env: Record<string, string> };
  readonly #log: (line: string) => void;

  constructor(name: string, command: { script: string; args: string[]; env: Record<string, string> }, log: (line: string) => void) {
    this.name = name;
    this.#command = command;
    this.#log = log;
  }

  /** Whether it is up and has its workers running. */
  get ready(): boolean {
    return this.#ready;
  }

  /** What it last wrote on stderr. */
  get stderr(): string {
    return this.#stderr;
  }

  start(): void {
    const { script, args, env } = this.#command;
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    this.#ready = false;
    this.starts++;
    child.stdout!.on('data', (chunk) => {
      if (String(chunk).includes('ready')) this.#ready = true;
    });
    child.stderr!.on('data', (chunk) => {
      this.#stderr = (this.#stderr + String(chunk)).slice(-8192);
    });
    let killed = false;
    child.once('exit', (code, signal) => {
      killed = signal === 'SIGKILL';
      this.#ready = false;
      if (this.#stopping) return;
      if (!killed) {
        this.crashes++;
        this.#log(`${this.name} exited by itself (code ${code}, signal ${signal}); restarted. Its stderr:\n${this.#stderr}`);
      }
      this.start();
    });
  }

  /** SIGKILL, if it is up with its workers running; restarted at once. */
  kill(): boolean {
    if (!this.#ready || !this.#child) return false;
    this.#ready = false;
    this.kills++;
    this.#child.kill('SIGKILL');
    return true;
  }

  /** Resolves once it is up (after a restart too). */
  async whenReady(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#ready) {
      if (Date.now() > deadline) throw new Error(`${this.name} was not ready within ${timeoutMs} ms. Its stderr:\n${this.#stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Stops it as a deployment does (SIGTERM drains its workers), SIGKILL after `graceMs`. */
  async stop(graceMs = 20_000): Promise<void> {
    this.#stopping = true;
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed, the same choices. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Until `signal` aborts: waits a random time in `everyMs`, then SIGKILLs one of `targets` picked
 * at random (one that is up; if none is, the next turn tries again).
 */
export async function killAtRandom(targets: Supervised[], options: { everyMs: [number, number]; random: () => number; signal: AbortSignal; log: (line: string) => void }) {
  const { everyMs: [min, max], random, signal, log } = options;
  while (!signal.aborted) {
    await sleep(min + random() * (max - min), undefined, { signal }).catch(() => {});
    if (signal.aborted) return;
    const target = targets[Math.floor(random() * targets.length)]!;
    if (target.kill()) log(`SIGKILL ${target.name} (kill ${target.kills} of it)`);
  }
}
