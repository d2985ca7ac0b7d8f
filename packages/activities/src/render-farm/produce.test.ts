import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import { localBlobStore, type BlobStore } from '@vp/blobs';
import type { Db } from '@vp/db';
import { ensureExport, ensureProject, finishExport, startExport } from '@vp/projects';
import { composeImages, type FetchMedia } from '@vp/render';
import { failWrites, seedAccount, test, waitFor } from '@vp/testing';
import { discardVideo, giveUpExport, produceExport } from './produce.ts';
import { untilTheDatabaseAnswers } from './until-the-database-answers.ts';

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
  /** One try; `blobs` stands in for the store, and `db` for the database, as another try would see them. */
  const produce = (blobs: BlobStore = deps.blobs, fetchMedia: FetchMedia = fetchPicture, database: Db = db) =>
    produceExport({ ...deps, blobs, db: database }, { exportId, composition, fetchMedia, signal: new AbortController().signal });
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
    await expect(produce(givenUpMeanwhile)).rejects.toThrow('The export was given up while this try was making it.');
    // Failed once, with the reason it was given up for.
    expect(await db.export.findUniqueOrThrow({ where: { id: exportId } })).toMatchObject({ status: 'failed', videoKey: null, error: 'The video could not be made after 3 tries.' });
    expect(await store.list(`exports/${exportId}/`)).toEqual([]);
  }, 60_000);
});

/** A medium that arrives when `release` says: the try waits in `preparing` till then. */
function heldPicture() {
  let release!: (error?: Error) => void;
  const held = new Promise<void>((resolve, reject) => {
    release = (error) => (error ? reject(error) : resolve());
  });
  const fetchMedia: FetchMedia = async () => {
    await held;
    return { status: 200, contentType: 'image/png', body: PICTURE };
  };
  return { fetchMedia, release };
}

describe('a try given up by the server, told so only after the next try started', () => {
  test('leaves the export to that try: its failure marks nothing failed, and the next try delivers', async ({ database }) => {
    const { db } = database;
    const { exportId, blobs, produce } = await exportToMake(db);
    const [old, next] = [heldPicture(), heldPicture()];
    const oldTry = produce(blobs, old.fetchMedia);
    await waitFor(async () => (await db.export.findUniqueOrThrow({ where: { id: exportId } })).take !== null, { what: 'the first try to start' });
    const firstTake = (await db.export.findUniqueOrThrow({ where: { id: exportId } })).take;
    const nextTry = produce(blobs, next.fetchMedia);
    await waitFor(async () => (await db.export.findUniqueOrThrow({ where: { id: exportId } })).take !== firstTake, { what: 'the next try to start' });

    // The old try fails as a last try would (the server no longer knows it), while the next renders.
    old.release(new Error('the server no longer knows this try'));
    await expect(oldTry).rejects.toThrow();
    expect(await db.export.findUniqueOrThrow({ where: { id: exportId } })).toMatchObject({ status: 'rendering' });
    next.release();
    const made = await nextTry;
    expect(made).toMatchObject({ status: 'done' });
    expect((await blobs.list(`exports/${exportId}/`)).sort()).toEqual([made.posterKey, made.videoKey]);
  }, 60_000);
});

describe('a try whose finishing committed but whose answer was lost', () => {
  /** A database that records the export done and then fails to say so: the connection drops (once), or anything else goes wrong (always). */
  const lossy = (db: Db, lost: () => Error | null) => {
    const exports = new Proxy(db.export, {
      get: (target, name) => (name === 'updateMany'
        ? async (args: Parameters<typeof target.updateMany>[0]) => {
          const done = await target.updateMany(args);
          const error = (args.data as { status?: string }).status === 'done' ? lost() : null;
          if (error) throw error;
          return done;
        }
        : Reflect.get(target, name)),
    });
    return new Proxy(db, { get: (target, name) => (name === 'export' ? exports : Reflect.get(target, name)) });
  };

  test('answers with the export it finished, even as the last try', async ({ database }) => {
    const { db } = database;
    let dropped = false;
    const dropsOnce = () => (dropped ? null : ((dropped = true), new Error('Connection terminated unexpectedly')));
    const failsAlways = () => new Error('The answer could not be read.');
    for (const lost of [dropsOnce, failsAlways]) {
      const { exportId, blobs, produce } = await exportToMake(db);
      const made = await produce(blobs, fetchPicture, lossy(db, lost));
      expect(made).toMatchObject({ status: 'done' });
      expect(await db.export.findUniqueOrThrow({ where: { id: exportId } })).toEqual(made);
      expect((await blobs.list(`exports/${exportId}/`)).sort()).toEqual([made.posterKey, made.videoKey]);
    }
  }, 60_000);
});

describe('a database away as a try starts, and again as it records the video', () => {
  test('is waited out: the try finishes with its files, and nothing is removed', async ({ database }) => {
    const { db } = database;
    const { exportId, blobs, produce } = await exportToMake(db);
    const starting = await failWrites(db, { table: 'exports', on: 'UPDATE', when: `NEW.id = '${exportId}' AND NEW.status = 'rendering'`, times: 2 });
    const finishing = await failWrites(db, { table: 'exports', on: 'UPDATE', when: `NEW.id = '${exportId}' AND NEW.status = 'done'`, times: 3 });
    const made = await produce();
    expect(made).toMatchObject({ status: 'done', videoKey: expect.stringMatching(`^exports/${exportId}/`) });
    expect([await starting.tried(), await finishing.tried()]).toEqual([3, 4]);
    expect((await blobs.list(`exports/${exportId}/`)).sort()).toEqual([made.posterKey, made.videoKey]);
    expect((await blobs.stat(made.videoKey!))?.size).toBe(made.bytes);
  }, 60_000);

  test('ends its wait when the try is cancelled', async ({ database }) => {
    const { db } = database;
    const { exportId } = await exportToMake(db);
    await failWrites(db, { table: 'exports', on: 'UPDATE', when: `NEW.id = '${exportId}' AND NEW.status = 'rendering'`, times: 1000 });
    const cancelled = new AbortController();
    setTimeout(() => cancelled.abort(new Error('the production was cancelled')), 1500);
    await expect(untilTheDatabaseAnswers(() => startExport(db, exportId), { signal: cancelled.signal })).rejects.toThrow('the production was cancelled');
  });
});

describe('the video of a production that was not delivered', () => {
  test('is discarded, finished or not: failed, its reason kept when it had one, and no file left', async ({ database }) => {
    const { db } = database;
    // Finished just as its production was cancelled.
    const finished = await exportToMake(db);
    await finished.produce();
    await discardVideo({ db, blobs: finished.blobs }, finished.exportId, 'The production was not delivered.');
    expect(await db.export.findUniqueOrThrow({ where: { id: finished.exportId } }))
      .toMatchObject({ status: 'failed', error: 'The production was not delivered.', videoKey: null, posterKey: null });
    expect(await finished.blobs.list(`exports/${finished.exportId}/`)).toEqual([]);

    // Its last try killed after its upload, once the tries before had failed it.
    const killed = await exportToMake(db);
    await giveUpExport({ db, blobs: killed.blobs }, killed.exportId, 'A media file could not be used.');
    await killed.blobs.put(`exports/${killed.exportId}/dead0001/video.mp4`, Buffer.from('a whole video'));
    await discardVideo({ db, blobs: killed.blobs }, killed.exportId, 'The production was not delivered.');
    expect(await db.export.findUniqueOrThrow({ where: { id: killed.exportId } })).toMatchObject({ status: 'failed', error: 'A media file could not be used.' });
    expect(await killed.blobs.list(`exports/${killed.exportId}/`)).toEqual([]);
  }, 60_000);
});
