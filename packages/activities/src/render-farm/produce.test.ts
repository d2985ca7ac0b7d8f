import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import { localBlobStore, type BlobStore } from '@vp/blobs';
import type { Db } from '@vp/db';
import { ensureExport, ensureProject, finishExport } from '@vp/projects';
import { composeImages, type FetchMedia } from '@vp/render';
import { seedAccount, test } from '@vp/testing';
import { giveUpExport, produceExport } from './produce.ts';

/** A 1×1 PNG: the one picture of the render. */
const PICTURE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const fetchPicture: FetchMedia = async () => ({ status: 200, contentType: 'image/png', body: PICTURE });

/** An export of a one-picture project to make, with a blob store and a work folder of its own. */
async function exportToMake(db: Db) {
  const dir = await mkdtemp(join(tmpdir(), 'vp-produce-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const { workspace } = await seedAccount(db);
  const composition = composeImages({ images: [{ url: 'https://media.example/picture.png', name: 'Picture' }], resolution: '480p', background: 'black' });
  const projectId = randomUUID();
  await ensureProject(db, { id: projectId, workspaceId: workspace.id, productionId: null, title: 'Picture', compose: () => composition });
  const { id: exportId } = await ensureExport(db, { id: randomUUID(), projectId, version: 1 });
  const deps = { db, blobs: localBlobStore(join(dir, 'blobs')), workDir: join(dir, 'work'), stallMs: 60_000 };
  /** One try; `blobs` stands in for the store, as another try would see it. */
  const produce = (blobs: BlobStore = deps.blobs) => produceExport({ ...deps, blobs }, { exportId, composition, fetchMedia: fetchPicture, signal: new AbortController().signal });
  return { dir, exportId, blobs: deps.blobs, produce };
}

describe('two tries of one export that both finish', () => {
  test('the first to finish keeps the export\'s files: the later one\'s are removed, and what is served never changes', async ({ database }) => {
    const { db } = database;
    const { exportId, blobs, produce } = await exportToMake(db);
    // The first try finishes; a try the server had given up on finishes after it.
    const first = await produce();
    expect(first).toMatchObject({ status: 'done', videoKey: expect.stringMatching(`^exports/${exportId}/`) });
    const late = await produce();
    expect(late).toEqual(first);
    expect(await db.export.findUniqueOrThrow({ where: { id: exportId } })).toEqual(first);
    // Only the first try's files are left, and they are the ones served.
    expect((await blobs.list(`exports/${exportId}/`)).sort()).toEqual([first.posterKey, first.videoKey]);
    expect((await blobs.stat(first.videoKey!))?.size).toBe(first.bytes);
  }, 60_000);
});

describe('a try killed after its upload', () => {
  test('leaves files that the take recorded removes: only the served files stay', async ({ database }) => {
    const { dir, exportId, blobs, produce } = await exportToMake(database.db);
    // One try uploaded both files and died; another died halfway through writing its video.
    await blobs.put(`exports/${exportId}/dead0001/video.mp4`, Buffer.from('a whole video'));
    await blobs.put(`exports/${exportId}/dead0001/poster.jpg`, Buffer.from('a poster'));
    await mkdir(join(dir, 'blobs', 'exports', exportId, 'dead0002'), { recursive: true });
    await writeFile(join(dir, 'blobs', 'exports', exportId, 'dead0002', 'video.mp4.5a6b7c8d9e0f.partial'), 'half a video');

    const made = await produce();
    expect((await blobs.list(`exports/${exportId}/`)).sort()).toEqual([made.posterKey, made.videoKey]);
  }, 60_000);
});

describe('a try whose upload another try removed', () => {
  test('finishes with the files the other try recorded, and fails nothing', async ({ database }) => {
    const { db } = database;
    const { exportId, blobs: store, produce } = await exportToMake(db);
    const winner = { video: `exports/${exportId}/0000beef/video.mp4`, poster: `exports/${exportId}/0000beef/poster.jpg` };
    await store.put(winner.video, Buffer.from('the video'));
    await store.put(winner.poster, Buffer.from('the poster'));
    // While this try uploads, the other finishes first and tidies this try's take away.
    const racing: BlobStore = {
      ...store,
      async put(key, body, options) {
        if (key.endsWith('video.mp4') && !key.startsWith(`exports/${exportId}/0000beef/`)) {
          await finishExport(db, exportId, winner, { bytes: 9, durationMs: 1000, width: 854, height: 480 });
          throw Object.assign(new Error(`ENOENT: no such file or directory, rename '${key}'`), { code: 'ENOENT' });
        }
        return store.put(key, body, options);
      },
    };
    const made = await produce(racing);
    expect(made).toMatchObject({ status: 'done', videoKey: winner.video, posterKey: winner.poster });
    expect((await store.list(`exports/${exportId}/`)).sort()).toEqual([winner.poster, winner.video]);
  }, 60_000);
});

describe('an export given up after its last try', () => {
  test('is marked failed, and what its tries left in the blob store is removed; a finished one keeps its files', async ({ database }) => {
    const { db } = database;
    const { exportId, blobs } = await exportToMake(db);
    // The last try uploaded both files and was killed before it recorded them.
    await blobs.put(`exports/${exportId}/dead0001/video.mp4`, Buffer.from('a whole video'));
    await blobs.put(`exports/${exportId}/dead0001/poster.jpg`, Buffer.from('a poster'));
    await giveUpExport({ db, blobs }, exportId, 'The video could not be made after 3 tries.');
    expect(await db.export.findUniqueOrThrow({ where: { id: exportId } })).toMatchObject({ status: 'failed', error: 'The video could not be made after 3 tries.' });
    expect(await blobs.list(`exports/${exportId}/`)).toEqual([]);

    const other = await exportToMake(db);
    const made = await other.produce();
    await giveUpExport({ db, blobs: other.blobs }, other.exportId, 'Too late.');
    expect(await db.export.findUniqueOrThrow({ where: { id: other.exportId } })).toEqual(made);
    expect((await other.blobs.list(`exports/${other.exportId}/`)).sort()).toEqual([made.posterKey, made.videoKey]);
  }, 60_000);

  test('a try that finishes after its export was given up records nothing, and leaves no files', async ({ database }) => {
    const { db } = database;
    const { exportId, blobs: store, produce } = await exportToMake(db);
    // The workflow gives the export up while this try, cut off from the server, is uploading.
    const givenUpMeanwhile: BlobStore = {
      ...store,
      async put(key, body, options) {
        await store.put(key, body, options);
        if (key.endsWith('video.mp4')) await giveUpExport({ db, blobs: store }, exportId, 'The video could not be made after 3 tries.');
      },
    };
    const made = await produce(givenUpMeanwhile);
    expect(made).toMatchObject({ status: 'failed', videoKey: null, error: 'The video could not be made after 3 tries.' });
    expect(await store.list(`exports/${exportId}/`)).toEqual([]);
  }, 60_000);
});
