import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleWorkflowCode, Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { failureConverterPath, temporalDataConverter } from '@vp/temporal-client';
import { workflowsPath } from './path.ts';

/**
 * Productions wait in their workflows for days: a worker running new workflow code must replay
 * the histories that earlier code wrote. Every history recorded under histories/ (by
 * `pnpm record-histories`, one folder per recording) replays against today's code.
 */
const HISTORIES = new URL('../histories/', import.meta.url).pathname;
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };
/**
 * The payload key the recordings are encrypted with (recordings from before the codec are plain,
 * and pass through it): a test key, committed with them, as they hold only test data.
 */
const recordingConverter = temporalDataConverter({
  payloadKey: Buffer.from(readFileSync(new URL('../histories/payload-key.txt', import.meta.url), 'utf8').trim(), 'base64'), previousPayloadKey: null,
});

type Recorded = { name: string; workflowId: string; history: unknown };

async function recordedHistories(): Promise<Recorded[]> {
  const recordings = (await readdir(HISTORIES, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  const all: Recorded[] = [];
  for (const recording of recordings) {
    for (const file of (await readdir(join(HISTORIES, recording))).filter((name) => name.endsWith('.json')).sort()) {
      const name = `${recording}/${file.replace(/\.json$/, '')}`;
      all.push({ name, workflowId: name, history: JSON.parse(await readFile(join(HISTORIES, recording, file), 'utf8')) });
    }
  }
  return all;
}

/** The names of the histories that fail to replay, with why. */
async function replayFailures(options: ReplayWorkerOptions, histories: Recorded[]): Promise<string[]> {
  const failures: string[] = [];
  const results = Worker.runReplayHistories({ ...options, replayName: 'replay-test' }, histories.map(({ workflowId, history }) => ({ workflowId, history })));
  for await (const result of results) if (result.error) failures.push(`${result.workflowId}: ${result.error.message.split('\n')[0]}`);
  return failures;
}

describe('recorded workflow histories (ARCHITECTURE rule 5)', () => {
  it('every one replays against today\'s workflow code', async () => {
    const histories = await recordedHistories();
    // Each workflow type, at each point where it waits or ends.
    expect(histories.length).toBeGreaterThanOrEqual(20);
    const { code } = await bundleWorkflowCode({ workflowsPath, failureConverterPath, logger: quiet });
    expect(await replayFailures({ workflowBundle: { code }, dataConverter: recordingConverter }, histories)).toEqual([]);
  }, 120_000);

  it('a change that alters the commands of a recorded history fails replay unless it is patched', async () => {
    const histories = (await recordedHistories()).filter((h) => h.name.endsWith('/production-pitch-ready'));
    expect(histories.length).toBeGreaterThan(0);
    // Beside the real workflows, so their imports resolve.
    const dir = await mkdtemp(join(HISTORIES, '..', '.changed-workflow-'));
    const changed = (guard: string) => [
      "import { patched, sleep } from '@temporalio/workflow';",
      "import { productionWorkflow as today } from '../src/index.ts';",
      "export * from '../src/index.ts';",
      'export async function productionWorkflow(input: Parameters<typeof today>[0]) {',
      `  ${guard} await sleep(1);`,
      '  return today(input);',
      '}',
    ].join('\n');
    try {
      const replay = async (source: string) => {
        await writeFile(join(dir, 'index.ts'), source);
        const { code } = await bundleWorkflowCode({ workflowsPath: join(dir, 'index.ts'), failureConverterPath, logger: quiet });
        return replayFailures({ workflowBundle: { code }, dataConverter: recordingConverter }, histories);
      };
      const unpatched = await replay(changed(''));
      expect(unpatched).toHaveLength(histories.length);
      expect(unpatched[0]).toMatch(/nondetermin/i);
      expect(await replay(changed("if (patched('replay-test-timer'))"))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
