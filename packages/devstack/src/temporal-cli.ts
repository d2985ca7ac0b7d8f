import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { executable, findGo, goInstall, onPath, toolCacheDir } from './go-tools.ts';
import { freePort } from './ports.ts';

/** The CLI whose `temporal server start-dev` is our embedded Temporal. Later tags cannot be go-installed. */
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

export const cliCacheDir = () => toolCacheDir('temporal-cli-v1.5.1');

export type TemporalCli = { kind: 'path'; path: string; source: string } | { kind: 'sdk-download' };

/**
 * Finds the Temporal CLI: TEMPORAL_CLI_PATH, then `temporal` on PATH, then a copy built
 * before, then `go install` where Go exists; else the Temporal SDK's own download.
 */
export async function findTemporalCli(options: { explicitPath?: string; log?: (line: string) => void } = {}): Promise<TemporalCli> {
  if (options.explicitPath) {
    if (!executable(options.explicitPath)) throw new Error(`TEMPORAL_CLI_PATH=${options.explicitPath} is not an executable file`);
    return { kind: 'path', path: options.explicitPath, source: 'TEMPORAL_CLI_PATH' };
  }
  const fromPath = onPath('temporal');
  if (fromPath) return { kind: 'path', path: fromPath, source: 'PATH' };
  const cached = join(cliCacheDir(), 'temporal');
  if (executable(cached)) return { kind: 'path', path: cached, source: 'cache' };
  const go = findGo();
  if (go) {
    options.log?.(`Building the Temporal CLI with Go (${TEMPORAL_CLI_MODULE}); this happens once…`);
    await goInstall(go, TEMPORAL_CLI_MODULE, cliCacheDir());
    if (executable(cached)) return { kind: 'path', path: cached, source: 'go install' };
  }
  return { kind: 'sdk-download' };
}

export const MISSING_TEMPORAL_HELP = [
  'No Temporal CLI could be found or obtained.',
  'Do one of these and run the command again:',
  '  - install Go (https://go.dev/dl) so the project can build it: go install ' + TEMPORAL_CLI_MODULE,
  '  - put a `temporal` binary on PATH, or set TEMPORAL_CLI_PATH to one',
  '  - or point TEMPORAL_ADDRESS at a running Temporal server',
].join('\n');

/** The CLI's path, found as `findTemporalCli` says or, as a last resort, downloaded by the Temporal SDK. */
export async function temporalCliPath(options: { explicitPath?: string; log?: (line: string) => void } = {}): Promise<string> {
  const cli = await findTemporalCli(options);
  if (cli.kind === 'path') return cli.path;
  options.log?.('Downloading the Temporal CLI through the Temporal SDK; this happens once…');
  return downloadTemporalCli(toolCacheDir('temporal-cli-sdk-download'));
}

/**
 * The SDK downloads the CLI only as it starts a server with it, which it gives a fixed 5 s: the
 * server it starts is stopped at once (or failed to start in time), and the file it downloaded is
 * what is kept and run as our own child.
 */
async function downloadTemporalCli(dir: string): Promise<string> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  let failure: unknown = null;
  try {
    const env = await TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'cached-download', downloadDir: dir }, ip: '127.0.0.1', port: await freePort(), ui: false },
    });
    await env.teardown();
  } catch (error) {
    failure = error;
  }
  const downloaded = (await readdir(dir).catch(() => [])).filter((name) => name.startsWith('temporal-')).map((name) => join(dir, name)).find(executable);
  if (!downloaded) throw new Error(`${MISSING_TEMPORAL_HELP}\n(${failure instanceof Error ? failure.message : 'the download left no executable'})`);
  return downloaded;
}
