import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The CLI whose `temporal server start-dev` is our embedded Temporal. Later tags cannot be go-installed. */
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

/** A per-user cache, so every clone of the project shares one build. */
export function cliCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'video-production-service', 'temporal-cli-v1.5.1');
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && executable(candidate)) return candidate;
  }
  return undefined;
}

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
  const go = onPath('go') ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  if (go) {
    options.log?.(`Building the Temporal CLI with Go (${TEMPORAL_CLI_MODULE}); this happens once…`);
    await mkdir(cliCacheDir(), { recursive: true });
    await new Promise<void>((resolve, reject) =>
      execFile(go, ['install', TEMPORAL_CLI_MODULE], { env: { ...process.env, GOBIN: cliCacheDir() }, maxBuffer: 1 << 24 }, (err, _out, stderr) =>
        err ? reject(new Error(`go install ${TEMPORAL_CLI_MODULE} failed:\n${stderr}`)) : resolve(),
      ),
    );
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
