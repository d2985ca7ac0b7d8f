import { TestWorkflowEnvironment } from '@temporalio/testing';
import { findTemporalCli, MISSING_TEMPORAL_HELP } from './temporal-cli.ts';

export type RunningTemporal = { address: string; uiUrl: string | null; stop: () => Promise<void> };

/**
 * `temporal server start-dev`, run through the SDK's ephemeral-server support so it is
 * stopped with this process. With a db file the history survives restarts.
 */
export async function startTemporalDevServer(options: {
  cliPath?: string;
  dbFile?: string;
  port?: number;
  uiPort?: number;
  ui?: boolean;
  namespace?: string;
  log?: (line: string) => void;
}): Promise<RunningTemporal> {
  const cli = await findTemporalCli({ explicitPath: options.cliPath, log: options.log });
  const executable =
    cli.kind === 'path' ? ({ type: 'existing-path', path: cli.path } as const) : ({ type: 'cached-download' } as const);
  let env: TestWorkflowEnvironment;
  try {
    env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable,
        ip: '127.0.0.1',
        port: options.port,
        ui: options.ui ?? false,
        uiPort: options.uiPort,
        dbFilename: options.dbFile,
        namespace: options.namespace ?? 'default',
        log: { format: 'pretty', level: 'warn' },
        extraArgs: ['--dynamic-config-value', 'frontend.enableUpdateWorkflowExecution=true'],
      },
    });
  } catch (error) {
    if (cli.kind === 'sdk-download') throw new Error(`${MISSING_TEMPORAL_HELP}\n(${(error as Error).message})`);
    throw error;
  }
  const uiUrl = options.ui ? `http://127.0.0.1:${options.uiPort ?? Number(env.address.split(':')[1]) + 1000}` : null;
  return { address: env.address, uiUrl, stop: () => env.teardown() };
}
