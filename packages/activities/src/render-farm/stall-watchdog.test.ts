import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { localBlobStore } from '@vp/blobs';
import { ensureExport, ensureProject } from '@vp/projects';
import { composeImages, type FetchMedia } from '@vp/render';
import { seedAccount, test, waitFor } from '@vp/testing';
import { asActivityFailure } from './failures.ts';
import { produceExport } from './produce.ts';
import { RenderStalledError, stallWatchdog } from './stall-watchdog.ts';

const STALL_MS = 2000;
/** A 1×1 PNG: the one picture of the render. */
const PICTURE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const fetchPicture: FetchMedia = async () => ({ status: 200, contentType: 'image/png', body: PICTURE });

let dir: string;
const PATH = process.env.PATH;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vp-stall-'));
  // An ffmpeg that never reads its input and never exits, as a wedged encoder does: first on the PATH.
  const bin = join(dir, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'ffmpeg'), `#!/bin/sh\necho $$ > '${join(dir, 'ffmpeg.pid')}'\nexec sleep 60\n`);
  await chmod(join(bin, 'ffmpeg'), 0o755);
  process.env.PATH = `${bin}:${PATH}`;
});

afterEach(async () => {
  process.env.PATH = PATH;
  const hungPid = await readPid();
  if (hungPid && isAlive(hungPid)) process.kill(hungPid, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** The hung ffmpeg's process id, once it has started. */
async function readPid(): Promise<number | null> {
  return readFile(join(dir, 'ffmpeg.pid'), 'utf8').then(Number, () => null);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a render that stops making progress', () => {
  test('is stopped once it has reported nothing for the stall time: its hung child is killed and the try fails, to be tried again, saying why', async ({ database }) => {
    const { db } = database;
    const { workspace } = await seedAccount(db);
    const composition = composeImages({ images: [{ url: 'https://media.example/picture.png', name: 'Picture' }], resolution: '480p', background: 'black' });
    const projectId = randomUUID();
    await ensureProject(db, { id: projectId, workspaceId: workspace.id, productionId: null, title: 'Stall', compose: () => composition });
    const { id: exportId } = await ensureExport(db, { id: randomUUID(), projectId, version: 1 });
    const workDir = join(dir, 'work');

    const phases: string[] = [];
    const failure = await produceExport(
      { db, blobs: localBlobStore(join(dir, 'blobs')), workDir, stallMs: STALL_MS },
      { exportId, composition, fetchMedia: fetchPicture, signal: new AbortController().signal, onPhase: (phase) => phases.push(phase) },
    ).then(() => null, (error: unknown) => error);

    // The encoder hung at the first frame (it would sleep for a minute): only the stall watchdog
    // ended the try, which it does once nothing was reported for the stall time (below, on a clock of its own).
    expect(phases.at(-1)).toBe('building');
    expect(failure).toBeInstanceOf(RenderStalledError);
    const message = 'The render stopped making progress while building: nothing moved for 2 seconds.';
    expect((failure as Error).message).toBe(message);
    // Temporal tries it again (it may have been the machine), with the same readable message.
    expect(asActivityFailure(failure, 1)).toBeInstanceOf(ApplicationFailure);
    expect(asActivityFailure(failure, 1)).toMatchObject({ type: 'RenderStalledError', nonRetryable: false, message });
    expect(await db.export.findUniqueOrThrow({ where: { id: exportId } })).toMatchObject({ status: 'failed', error: message });

    // The hung ffmpeg is gone, and so is everything the try wrote.
    const hungPid = await readPid();
    expect(hungPid).toBeGreaterThan(0);
    await waitFor(() => !isAlive(hungPid!), { what: 'the hung ffmpeg to die', timeoutMs: 2000 });
    expect(await readdir(workDir)).toEqual([]);
  }, 30_000);
});

describe('the stall watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never stops a render that keeps reporting, however slowly, and stops it once it falls silent for the stall time', () => {
    const watchdog = stallWatchdog(1000);
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(999);
      watchdog.moved('reviewing');
    }
    expect(watchdog.signal.aborted).toBe(false);
    // Silent since the last report: not a moment too soon, and then at once.
    vi.advanceTimersByTime(999);
    expect(watchdog.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watchdog.signal.reason).toBeInstanceOf(RenderStalledError);
    expect(watchdog.signal.reason).toMatchObject({ message: 'The render stopped making progress while reviewing: nothing moved for 1 second.' });
    // A late report does not start it again.
    watchdog.moved('polishing');
    vi.advanceTimersByTime(5000);
    expect(watchdog.signal.reason).toMatchObject({ message: 'The render stopped making progress while reviewing: nothing moved for 1 second.' });
  });

  it('is silent once stopped', () => {
    const watchdog = stallWatchdog(1000);
    watchdog.stop();
    vi.advanceTimersByTime(10_000);
    expect(watchdog.signal.aborted).toBe(false);
  });
});
