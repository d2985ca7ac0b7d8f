import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '@vp/devstack';
import { waitFor } from '@vp/testing';
import { DEV_STACK_SECRETS } from './dev-secrets.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const generatedClient = join(root, 'packages/db/src/generated/client.ts');

/** Whether something accepts connections on the port (of loopback unless told). */
function listening(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A process's `/proc` entry, or null once the process is gone. */
function readProc(pid: number | string, file: 'cmdline' | 'stat'): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
}

/** The running processes whose `/proc` entry `file` passes `test`. */
function processes(file: 'cmdline' | 'stat', test: (content: string) => boolean): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((pid) => {
    const content = readProc(pid, file);
    return content !== null && test(content) ? [Number(pid)] : [];
  });
}

const commandLine = (pid: number) => readProc(pid, 'cmdline')?.replaceAll('\0', ' ').trim() ?? `${pid} (gone)`;
/** PostgreSQL's and Temporal's command lines name their data. */
const processesNaming = (text: string) => processes('cmdline', (cmdline) => cmdline.includes(text));
/** The fourth field of `stat` is the parent's pid (the second, the name in parentheses, may hold spaces). */
const childrenOf = (parent: number) => processes('stat', (stat) => stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(parent));
/** A process that has exited but not yet been reaped (state Z) is not running. */
function running(pid: number): boolean {
  const stat = readProc(pid, 'stat');
  return stat !== null && stat[stat.lastIndexOf(')') + 2] !== 'Z';
}

describe.runIf(process.platform === 'linux')('pnpm dev', () => {
  it('starts the whole stack with its data in DATA_DIR, and stops all of it, in order, on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vp-dev-'));
    const ports = { DEV_POSTGRES_PORT: await freePort(), DEV_TEMPORAL_PORT: await freePort(), DEV_TEMPORAL_UI_PORT: await freePort(), PORT: await freePort(), APP_PORT: await freePort() };
    const clientGeneratedAt = statSync(generatedClient).mtimeMs;
    const launcher = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir,
        ...(process.env.TEMPORAL_CLI_PATH ? { TEMPORAL_CLI_PATH: process.env.TEMPORAL_CLI_PATH } : {}),
        ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A group of its own: if the test fails, everything it started is killed with it.
      detached: true,
    });
    let output = '';
    launcher.stdout.on('data', (chunk) => (output += String(chunk)));
    launcher.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => output.includes('The video production service is running'), { what: `the stack to start:\n${output}`, timeoutMs: 150_000, intervalMs: 200 });
      await waitFor(async () => (await fetch(`http://127.0.0.1:${ports.PORT}/readyz`)).ok, { what: 'the gateway to be ready', timeoutMs: 30_000 });
      const up = ['gateway listening', 'app listening', '"worker started"', 'render worker started'];
      await waitFor(() => up.every((line) => output.includes(line)), { what: 'the workers to start', timeoutMs: 60_000, intervalMs: 200 });
      // The app beside the API, at its own address.
      expect(output).toContain(`App          http://localhost:${ports.APP_PORT}`);
      expect((await fetch(`http://127.0.0.1:${ports.APP_PORT}/sign-in`)).status).toBe(200);
      expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
      expect(existsSync(join(dataDir, 'temporal.sqlite'))).toBe(true);
      // Secrets of its own, made on this first run, readable by its owner only.
      expect(output).toContain(`Made the stack's secrets (${DEV_STACK_SECRETS.join(', ')})`);
      expect(statSync(join(dataDir, 'secrets.env')).mode & 0o777).toBe(0o600);
      // Every port it opened is on loopback only: another interface of this machine reaches none.
      const outside = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
      for (const port of outside ? Object.values(ports) : []) expect(await listening(port, outside), `port ${port} on ${outside}`).toBe(false);
      // The client was generated from this schema already: starting left it alone.
      expect(statSync(generatedClient).mtimeMs).toBe(clientGeneratedAt);

      // Four services, PostgreSQL and the Temporal dev server.
      const started = childrenOf(launcher.pid!);
      expect(started.length).toBeGreaterThanOrEqual(6);

      process.kill(launcher.pid!, 'SIGTERM');
      expect(await exited).toBe(0);
      // The launcher waited for every process it started.
      const left = started.filter(running);
      expect(left, `still running: ${left.map(commandLine).join('; ')}`).toEqual([]);
      for (const line of ['gateway stopped', 'app stopped', 'render worker stopped', '"worker stopped"']) expect(output).toContain(line);
      for (const port of Object.values(ports)) expect(await listening(port), `port ${port}`).toBe(false);
      expect(processesNaming(dataDir)).toEqual([]);
    } finally {
      try {
        process.kill(-launcher.pid!, 'SIGKILL');
      } catch {
        // Already gone, as it should be.
      }
      for (const pid of processesNaming(dataDir)) process.kill(pid, 'SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
