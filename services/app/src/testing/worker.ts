import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { testSecrets, waitFor } from '@vp/testing';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The real worker in a process of its own, over the test file's database and the run's Temporal
 * server (the app imports no other service): for tests whose pages start or answer workflows.
 * `env` names its task queue prefix (the app's, to serve the same requests).
 */
export async function startWorkerProcess(database: { url: string }, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/worker/src/main.ts'], {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...testSecrets, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: database.url, TEMPORAL_ADDRESS: inject('temporalAddress'), WEBHOOK_SWEEP_INTERVAL_MS: '0', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`The worker exited: ${output}`);
    return output.includes('worker started');
  }, { what: 'the worker to start', timeoutMs: 90_000, intervalMs: 200 });
  return {
    close: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
