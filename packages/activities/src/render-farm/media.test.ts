import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localBlobStore } from '@vp/blobs';
import { composeImages, MediaError, QualityError, renderComposition } from '@vp/render';
import { asActivityFailure } from './failures.ts';
import { mediaFetcher } from './media.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vp-media-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const LIMITS = { maxBytes: 1024 * 1024, timeoutMs: 5000 };

describe('the render farm\'s media', () => {
  it('refuses a private address: the render fails in preparing with a readable, non-retryable MediaError', async () => {
    const fetchMedia = mediaFetcher({ blobs: localBlobStore(join(dir, 'blobs')), allowPrivate: false });
    const composition = composeImages({ images: [{ url: 'http://127.0.0.1:9/screenshot.png', name: 'Screenshot' }], resolution: '480p', background: 'black' });
    const phases: string[] = [];
    const failure = await renderComposition(composition, { outFile: join(dir, 'out.mp4'), workDir: join(dir, 'work'), fetchMedia, onPhase: (p) => phases.push(p) })
      .then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(MediaError);
    expect((failure as Error).message).toBe("The image 'Screenshot' (http://127.0.0.1:9/screenshot.png) could not be downloaded: 127.0.0.1 is a loopback address, which is not a public address");
    expect(phases).toEqual(['preparing']);

    const activityFailure = asActivityFailure(failure);
    expect(activityFailure).toBeInstanceOf(ApplicationFailure);
    expect(activityFailure).toMatchObject({ type: 'MediaError', nonRetryable: true, message: (failure as Error).message });
  });

  it('reads a render\'s own uploads from the blob store, and no one else\'s', async () => {
    const blobs = localBlobStore(join(dir, 'blobs'));
    await blobs.put('renders/mine/images/1.png', Buffer.from('mine'));
    await blobs.put('renders/theirs/images/1.png', Buffer.from('theirs'));
    const fetchMedia = mediaFetcher({ blobs, allowPrivate: false, blobPrefix: 'renders/mine/' });
    expect(await fetchMedia('blob:renders/mine/images/1.png', LIMITS)).toMatchObject({ status: 200, contentType: 'image/png', body: Buffer.from('mine') });
    await expect(fetchMedia('blob:renders/theirs/images/1.png', LIMITS)).rejects.toThrow(/not one of this render's uploads/);
    // A production's brief names no uploads at all.
    await expect(mediaFetcher({ blobs, allowPrivate: true })('blob:renders/mine/images/1.png', LIMITS)).rejects.toThrow(/not one of this render's uploads/);
  });

  it('keeps other render failures retryable, with their readable message only', () => {
    const quality = new QualityError([{ check: 'blank frame', message: 'the frame at 1.5 s is blank' }]);
    expect(asActivityFailure(quality)).toMatchObject({ type: 'QualityError', nonRetryable: false, message: quality.message });
    const other = new Error('ECONNRESET');
    expect(asActivityFailure(other)).toBe(other);
  });
});
