import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import './provided.ts';
import { loadConfig, SECRET_NAMES, type Config } from '@vp/config';

/**
 * This test file's secrets (a module is loaded once per file): random, as a deployment's are, and
 * never the built-in development ones. A process a test starts gets them too (`...testSecrets`).
 */
export const testSecrets: Record<string, string> = Object.fromEntries(SECRET_NAMES.map((name) => [name, randomBytes(32).toString('base64')]));

/**
 * The configuration a test process would get from its environment: this file's database,
 * the shared Temporal server, and task queues no other test file uses.
 */
export function testConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}`,
    ...testSecrets,
    // Off unless a test asks: a schedule outlives the test's workers on the shared server.
    WEBHOOK_SWEEP_INTERVAL_MS: '0',
    // A test's in-process render worker stops within seconds; the stop test runs its own with the default.
    RENDER_SHUTDOWN_GRACE_MS: '10000',
    // Most test files run no render worker: their pitch e-mails do not wait for stills nobody draws.
    STORYBOARD_WAIT_MS: '0',
    ...env,
  });
}
