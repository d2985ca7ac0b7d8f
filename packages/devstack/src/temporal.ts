import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports.ts';
import { runs, signalGroup, stopProcessGroup } from './process-group.ts';
import { temporalCliPath } from './temporal-cli.ts';
import { temporalReady } from './temporal-health.ts';

export type RunningTemporal = { address: string; uiUrl: string | null; stop: () => Promise<void> };
export type SearchAttributeType = 'Text' | 'Keyword' | 'Int' | 'Double' | 'Bool' | 'Datetime' | 'KeywordList';

export type TemporalDevServerOptions = {
  cliPath?: string;
  /** With a db file the history survives restarts; without, it lives as long as the server. */
  dbFile?: string;
  /** Free ports are picked for those not given. */
  port?: number;
  uiPort?: number;
  /** Where the Web UI reads payloads through (a codec endpoint: ours, the gateway's /codec/<token>). */
  uiCodecEndpoint?: string;
  ui?: boolean;
  namespace?: string;
  /** Registered at start (`--search-attribute Name=Type`), e.g. `SEARCH_ATTRIBUTES` of @vp/contracts. */
  searchAttributes?: Readonly<Record<string, SearchAttributeType>>;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** How long the server may take to answer (60 s): a first start on a busy machine takes a while. */
  startTimeoutMs?: number;
  log?: (line: string) => void;
};

const STOP_GRACE_MS = 10_000;
const SAY_WAITING_AFTER_MS = 2000;
/** The CLI's last words kept for an error, in characters. */
const OUTPUT_KEPT = 16_000;

/**
 * `temporal server start-dev` as a child of this process, in a process group of its own (Ctrl-C in
 * a terminal reaches the launcher, which stops it in order), waited on until it serves: the frontend
 * answers, the namespace exists and the search attributes are registered. It fails with the CLI's
 * own output when the CLI exits first or `startTimeoutMs` passes. `stop` ends it (SIGTERM, then
 * SIGKILL after 10 s) and waits; a process that exits without calling it kills it on its way out.
 */
export async function startTemporalDevServer(options: TemporalDevServerOptions = {}): Promise<RunningTemporal> {
  const cli = await temporalCliPath({ explicitPath: options.cliPath, log: options.log });
  const port = options.port ?? await freePort();
  const uiPort = options.ui ? options.uiPort ?? await freePort() : null;
  const namespace = options.namespace ?? 'default';
  const address = `127.0.0.1:${port}`;
  const child = spawn(cli, devServerArgs({ ...options, port, uiPort, namespace }), { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let spawnError: Error | null = null;
  child.on('error', (error) => (spawnError = error));
  const killOnExit = () => signalGroup(child, 'SIGKILL');
  process.on('exit', killOnExit);
  const stop = async () => {
    await stopProcessGroup(child, STOP_GRACE_MS);
    process.off('exit', killOnExit);
  };

  const started = Date.now();
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  let saidWaiting = false;
  for (let last: unknown = null; ; await sleep(250)) {
    if (spawnError || !runs(child)) {
      await stop();
      const how = spawnError ? `could not be started (${(spawnError as Error).message})` : `exited (${child.signalCode ?? `code ${child.exitCode}`})`;
      throw new Error(`The Temporal dev server (${cli}) ${how} before it answered on ${address}. Its output:\n${output.trim() || '(none)'}`);
    }
    try {
      await temporalReady(address, namespace, Object.keys(options.searchAttributes ?? {}));
      break;
    } catch (error) {
      last = error;
    }
    const waited = Date.now() - started;
    if (waited > timeoutMs) {
      await stop();
      throw new Error(`The Temporal dev server did not answer on ${address} within ${timeoutMs / 1000} s (${String(last)}). Its output:\n${output.trim() || '(none)'}`);
    }
    if (!saidWaiting && waited > SAY_WAITING_AFTER_MS) {
      saidWaiting = true;
      options.log?.(`Waiting for the Temporal dev server on ${address} to answer…`);
    }
  }
  return { address, uiUrl: uiPort === null ? null : `http://127.0.0.1:${uiPort}`, stop };
}

type DevServerArgs = Omit<TemporalDevServerOptions, 'port' | 'uiPort'> & { port: number; uiPort: number | null; namespace: string };

function devServerArgs(options: DevServerArgs): string[] {
  return [
    'server', 'start-dev', '--ip', '127.0.0.1', '--port', String(options.port), '--namespace', options.namespace,
    '--log-format', 'text', '--log-level', options.logLevel ?? 'warn',
    '--dynamic-config-value', 'frontend.enableUpdateWorkflowExecution=true',
    ...(options.dbFile ? ['--db-filename', options.dbFile] : []),
    ...(options.uiPort === null ? ['--headless'] : ['--ui-ip', '127.0.0.1', '--ui-port', String(options.uiPort)]),
    ...(options.uiPort !== null && options.uiCodecEndpoint ? ['--ui-codec-endpoint', options.uiCodecEndpoint] : []),
    ...Object.entries(options.searchAttributes ?? {}).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`]),
  ];
}
