import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePort } from '@vp/devstack';
import { testSecrets, waitFor } from '@vp/testing';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The real gateway in a process of its own, over the test file's database (the app imports no
 * other service): for tests that use a key made in the app on /v1, or play a video the app links to.
 * `port`: one chosen before, when the app must know the gateway's address (BASE_URL) first.
 */
export async function startGatewayProcess(database: { url: string }, env: Record<string, string> = {}, port?: number) {
  port ??= await freePort();
  const baseUrl = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/gateway/src/main.ts'], {
    cwd: root, stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...testSecrets, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, TEMPORAL_ADDRESS: inject('temporalAddress'), PORT: String(port), HOST: '127.0.0.1', BASE_URL: baseUrl, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`The gateway exited: ${stderr}`);
    return (await fetch(`${baseUrl}/healthz`).catch(() => null))?.ok;
  }, { what: 'the gateway to answer', timeoutMs: 30_000, intervalMs: 200 });
  return {
    url: baseUrl,
    close: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
