import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect, type AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEARCH_ATTRIBUTES } from '@vp/contracts/temporal';
import { freePort } from './ports.ts';
import { startTemporalDevServer } from './temporal.ts';

const cliPath = process.env.TEMPORAL_CLI_PATH;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vp-temporal-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Whether something accepts connections on the port. */
const listening = (port: number) => new Promise<boolean>((resolve) => {
  const socket = connect(port, '127.0.0.1');
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});

/** The processes whose command line mentions `text` (the dev server's names its db file). */
const processesNaming = (text: string) => readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
  } catch {
    return false;
  }
});

/** One busy loop per core: the machine is as busy as a CI runner under a whole test run. */
function keepCoresBusy(): () => void {
  const loops: ChildProcess[] = Array.from({ length: Math.max(2, availableParallelism()) }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return () => loops.forEach((loop) => loop.kill('SIGKILL'));
}

describe.runIf(process.platform === 'linux')('the Temporal dev server, a child of our own', () => {
  it('comes up on a first start (a new SQLite file) while every core is kept busy, answers, and has the search attributes', async () => {
    const release = keepCoresBusy();
    const lines: string[] = [];
    try {
      const temporal = await startTemporalDevServer({
        cliPath, dbFile: join(dir, 'temporal.sqlite'), searchAttributes: SEARCH_ATTRIBUTES, log: (line) => lines.push(line),
      });
      try {
        const connection = await Connection.connect({ address: temporal.address });
        try {
          expect(await connection.workflowService.describeNamespace({ namespace: 'default' })).toMatchObject({ namespaceInfo: { name: 'default' } });
          const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
          expect(Object.keys(customAttributes ?? {})).toEqual(expect.arrayContaining(Object.keys(SEARCH_ATTRIBUTES)));
        } finally {
          await connection.close();
        }
      } finally {
        await temporal.stop();
      }
    } finally {
      release();
    }
    // Whatever it said, it said what it waited for, not a stack trace.
    for (const line of lines) expect(line).toMatch(/^(Waiting for the Temporal dev server on 127\.0\.0\.1:\d+ to answer…|Building|Downloading)/);
  }, 120_000);

  it('stops with nothing left running: its process gone, its ports free', async () => {
    const [port, uiPort] = [await freePort(), await freePort()];
    const dbFile = join(dir, 'stopped.sqlite');
    const temporal = await startTemporalDevServer({ cliPath, dbFile, port, ui: true, uiPort });
    expect(temporal).toMatchObject({ address: `127.0.0.1:${port}`, uiUrl: `http://127.0.0.1:${uiPort}` });
    expect(processesNaming(dbFile)).toHaveLength(1);
    expect(await listening(port)).toBe(true);
    await temporal.stop();
    expect(processesNaming(dbFile)).toEqual([]);
    expect(await listening(port)).toBe(false);
    expect(await listening(uiPort)).toBe(false);
    await temporal.stop(); // a second stop is nothing
  }, 120_000);

  it('fails with the CLI\'s own words when it exits before answering (its port taken)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const dbFile = join(dir, 'refused.sqlite');
    try {
      const port = (taken.address() as AddressInfo).port;
      const failure = await startTemporalDevServer({ cliPath, dbFile, port }).catch((error: Error) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(new RegExp(`The Temporal dev server \\(.+\\) exited \\(code \\d+\\) before it answered on 127\\.0\\.0\\.1:${port}\\. Its output:\\n`));
      expect((failure as Error).message).toMatch(/address already in use|bind/i);
      expect(processesNaming(dbFile)).toEqual([]);
    } finally {
      taken.close();
    }
  }, 120_000);
});
