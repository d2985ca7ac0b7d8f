import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localBlobStore } from '@vp/blobs';
import { composeImages, CompositionError, MediaError, QualityError, renderComposition } from '@vp/render';
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

  it('names a render\'s upload by its name, never by its address in the blob store', async () => {
    const blobs = localBlobStore(join(dir, 'blobs'));
    await blobs.put('renders/named/images/1.png', Buffer.from('not a picture at all'));
    const fetchMedia = mediaFetcher({ blobs, allowPrivate: false, blobPrefix: 'renders/named/' });
    const composition = composeImages({ images: [{ url: 'blob:renders/named/images/1.png', name: 'Image 1' }], resolution: '480p', background: 'black' });
    const failure = await renderComposition(composition, { outFile: join(dir, 'named.mp4'), workDir: join(dir, 'named'), fetchMedia }).then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(MediaError);
    expect((failure as Error).message).toBe("The image 'Image 1' is not a PNG, JPEG, WebP, GIF or AVIF image");
  });

  it('tries again when the blob store does not answer, not when a key is not the render\'s own', async () => {
    const blobs = localBlobStore(join(dir, 'blobs'));
    const fetchMedia = mediaFetcher({ blobs, allowPrivate: false, blobPrefix: 'renders/lost/' });
    const failure = async (url: string) => {
      const composition = composeImages({ images: [{ url, name: 'Image 1' }], resolution: '480p', background: 'black' });
      const error = await renderComposition(composition, { outFile: join(dir, 'lost.mp4'), workDir: join(dir, 'lost'), fetchMedia }).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(MediaError);
      return error as MediaError;
    };
    expect(await failure('blob:renders/lost/images/1.png')).toMatchObject({ transient: true, message: "The image 'Image 1' could not be downloaded" });
    const foreign = await failure('blob:renders/other/images/1.png');
    expect(foreign).toMatchObject({ transient: false, message: "The image 'Image 1' could not be downloaded: it is not one of this render's uploads" });
    expect(asActivityFailure(foreign, 1)).toMatchObject({ type: 'MediaError', nonRetryable: true, details: [{ attempt: 1 }] });
  });

  it('lets the render farm try a medium that may pass again, saying which try failed', () => {
    const busy = new MediaError("The image 'Dashboard' (https://media.example/d.png) could not be downloaded: the server answered 503", 'image-1', 'https://media.example/d.png', null, { transient: true });
    expect(asActivityFailure(busy, 2)).toMatchObject({ type: 'MediaError', nonRetryable: false, message: busy.message, details: [{ attempt: 2 }] });
  });

  it('keeps other render failures retryable, with their readable message only', () => {
    const quality = new QualityError([{ check: 'blank frame', message: 'the frame at 1.5 s is blank' }]);
    expect(asActivityFailure(quality, 3)).toMatchObject({ type: 'QualityError', nonRetryable: false, message: quality.message, details: [{ attempt: 3 }] });
    const other = new Error('ECONNRESET');
    expect(asActivityFailure(other)).toBe(other);
  });

  it('does not try a project that breaks its own schema again: it would break the same way, so it fails once, readably', async () => {
    const composition = composeImages({ images: [{ url: 'https://media.example/1.png', name: 'Image 1' }], resolution: '480p', background: 'black' });
    const crowded = { ...composition, scenes: composition.scenes.map((s) => (s.kind === 'media' ? { ...s, media: Array.from({ length: 7 }, () => s.media[0]!) } : s)) };
    const failure = await renderComposition(crowded, { outFile: join(dir, 'crowded.mp4'), workDir: join(dir, 'crowded') }).then(() => null, (e: unknown) => e);
    expect(failure).toBeInstanceOf(CompositionError);
    expect((failure as Error).message).toBe('The project is not valid: scenes.1.media: Too big: expected array to have <=6 items');
    // Without the zod issues in `details`: logging them needs an activity's context.
    const bare = new CompositionError((failure as Error).message);
    expect(asActivityFailure(bare, 1)).toMatchObject({ type: 'CompositionError', nonRetryable: true, message: bare.message, details: [{ attempt: 1 }] });
  });
});
