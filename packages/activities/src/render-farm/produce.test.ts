import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { localBlobStore } from '@vp/blobs';
import { ensureExport, ensureProject } from '@vp/projects';
import { composeImages, type FetchMedia } from '@vp/render';
import { seedAccount, test } from '@vp/testing';
import { produceExport } from './produce.ts';

/** A 1×1 PNG: the one picture of the render. */
const PICTURE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const fetchPicture: FetchMedia = async () => ({ status: 200, contentType: 'image/png', body: PICTURE });

describe('two tries of one export that both finish', () => {
  test('the first to finish keeps the export\'s files: the later one\'s are removed, and what is served never changes', async ({ database }) => {
    const { db } = database;
    const dir = await mkdtemp(join(tmpdir(), 'vp-produce-'));
    try {
      const { workspace } = await seedAccount(db);
      const composition = composeImages({ images: [{ url: 'https://media.example/picture.png', name: 'Picture' }], resolution: '480p', background: 'black' });
      const projectId = randomUUID();
      await ensureProject(db, { id: projectId, workspaceId: workspace.id, productionId: null, title: 'Twice', compose: () => composition });
      const { id: exportId } = await ensureExport(db, { id: randomUUID(), projectId, version: 1 });
      const deps = { db, blobs: localBlobStore(join(dir, 'blobs')), workDir: join(dir, 'work'), stallMs: 60_000 };
      const produce = () => produceExport(deps, { exportId, composition, fetchMedia: fetchPicture, signal: new AbortController().signal });

      // The first try finishes; a try the server had given up on finishes after it.
      const first = await produce();
      expect(first).toMatchObject({ status: 'done', videoKey: expect.stringMatching(`^exports/${exportId}/`) });
      const late = await produce();
      expect(late).toEqual(first);
      expect(await db.export.findUniqueOrThrow({ where: { id: exportId } })).toEqual(first);
      // Only the first try's files are left, and they are the ones served.
      const files = (await readdir(join(dir, 'blobs', 'exports', exportId), { recursive: true })).filter((path) => /\.(mp4|jpg)$/.test(path));
      expect(files.map((path) => `exports/${exportId}/${path}`).sort()).toEqual([first.posterKey, first.videoKey]);
      expect((await deps.blobs.stat(first.videoKey!))?.size).toBe(first.bytes);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a try killed after its upload', () => {
  test('leaves files that the take recorded removes: only the served files stay', async ({ database }) => {
    const { db } = database;
    const dir = await mkdtemp(join(tmpdir(), 'vp-produce-'));
    try {
      const { workspace } = await seedAccount(db);
      const composition = composeImages({ images: [{ url: 'https://media.example/picture.png', name: 'Picture' }], resolution: '480p', background: 'black' });
      const projectId = randomUUID();
      await ensureProject(db, { id: projectId, workspaceId: workspace.id, productionId: null, title: 'Killed', compose: () => composition });
      const { id: exportId } = await ensureExport(db, { id: randomUUID(), projectId, version: 1 });
      const blobs = localBlobStore(join(dir, 'blobs'));
      // One try uploaded both files and died; another died halfway through writing its video.
      await blobs.put(`exports/${exportId}/dead0001/video.mp4`, Buffer.from('a whole video'));
      await blobs.put(`exports/${exportId}/dead0001/poster.jpg`, Buffer.from('a poster'));
      await mkdir(join(dir, 'blobs', 'exports', exportId, 'dead0002'), { recursive: true });
      await writeFile(join(dir, 'blobs', 'exports', exportId, 'dead0002', 'video.mp4.5a6b7c8d9e0f.partial'), 'half a video');

      const made = await produceExport({ db, blobs, workDir: join(dir, 'work'), stallMs: 60_000 }, {
        exportId, composition, fetchMedia: fetchPicture, signal: new AbortController().signal,
      });
      expect((await blobs.list(`exports/${exportId}/`)).sort()).toEqual([made.posterKey, made.videoKey]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
