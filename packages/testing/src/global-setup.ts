import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import './provided.ts';
import { bundleWorkflowCode } from '@temporalio/worker';
import { SEARCH_ATTRIBUTES } from '@vp/contracts/temporal';
import { migrate } from '@vp/db/migrate';
import { failureConverterPath } from '@vp/temporal-client';
import { workflowsPath } from '@vp/workflows/path';
import { databaseUrl, freePort, startEmbeddedPostgres, startTemporalDevServer } from '@vp/devstack';
import { scanEveryRun } from './history-scan.ts';

/**
 * Once per test run: one PostgreSQL server (TEST_DATABASE_URL, else an embedded one),
 * a template database with every migration applied, and one Temporal dev server.
 * Each test file then clones the template (fast) and uses task queues of its own.
 */
export default async function setup(project: TestProject) {
  const stops: (() => Promise<void>)[] = [];
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'vp-test-'));
    const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort() });
    serverUrl = postgres.url;
    stops.push(async () => {
      await postgres.stop();
      await rm(dir, { recursive: true, force: true });
    });
  }
  const template = `vp_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  await migrate(databaseUrl(serverUrl, template));
  stops.push(async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    await client.end();
  });

  // Bundle the workflows once for every test worker of the run.
  const bundleDir = await mkdtemp(join(tmpdir(), 'vp-workflows-'));
  // With the service's failure converter, as a worker bundling the workflows itself would include it.
  const { code } = await bundleWorkflowCode({ workflowsPath, failureConverterPath, logger: quietLogger });
  const workflowBundlePath = join(bundleDir, 'workflows.js');
  await writeFile(workflowBundlePath, code);
  stops.push(() => rm(bundleDir, { recursive: true, force: true }));

  const temporal = await startTemporalDevServer({ cliPath: process.env.TEMPORAL_CLI_PATH, searchAttributes: SEARCH_ATTRIBUTES, log: (l) => console.log(l) });
  stops.push(temporal.stop);

  project.provide('postgresServerUrl', serverUrl);
  project.provide('templateDatabase', template);
  project.provide('temporalAddress', temporal.address);
  project.provide('workflowBundlePath', workflowBundlePath);

  return async () => {
    await scanHistories(temporal.address);
    for (const stop of stops.reverse()) await stop().catch((error) => console.error(error));
  };
}

/**
 * Once every test file has ended, every workflow run of the test run is read raw for plaintext
 * (issue 40): e2e/gateway/temporal-history.test.ts proves the scan on runs it makes itself; this
 * one also covers the files that ran after it. A finding fails the run.
 */
async function scanHistories(address: string) {
  const { summary, findings } = await scanEveryRun(address);
  console.log(summary);
  if (findings.length === 0) return;
  for (const finding of findings) console.error(`plaintext in Temporal history: ${JSON.stringify(finding)}`);
  // An error thrown by a global teardown is only logged; the exit code is what CI reads.
  process.exitCode = 1;
}

const quietLogger = {
  log: () => {}, trace: () => {}, debug: () => {}, info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
