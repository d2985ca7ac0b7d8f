import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import { localBlobStore } from '@vp/blobs';
import type { Db } from '@vp/db';
import { ensureExport, ensureProject } from '@vp/projects';
import { composeImages, type FetchMedia } from '@vp/render';
import { seedAccount, test } from '@vp/testing';
import { produceExport } from './produce.ts';

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
  const produce = () => produceExport(deps, { exportId, composition, fetchMedia: fetchPicture, signal: new AbortController().signal });
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
