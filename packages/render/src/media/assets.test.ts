import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeImages } from '../composition/compose-images.ts';
import type { Composition } from '../composition/schema.ts';
import { layoutFor } from '../draw/layout.ts';
import { MediaError } from '../errors.ts';
import { startMediaServer } from '../testing/media-server.ts';
import { loadAssets } from './assets.ts';
import { publicMediaFetcher, type FetchMedia } from './fetch-media.ts';

let server: Awaited<ReturnType<typeof startMediaServer>>;
let dir: string;
beforeAll(async () => {
  server = await startMediaServer();
  dir = await mkdtemp(join(tmpdir(), 'vp-assets-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const local = publicMediaFetcher({ allowPrivate: true });

function withMedia(kind: 'image' | 'video', path: string, logo: string | null = null): Composition {
  const composition = composeImages({ images: [{ url: server.url(path), name: 'Dashboard' }], resolution: '480p', background: 'black', appName: 'Acme' });
  return {
    ...composition,
    brand: { ...composition.brand, logoUrl: logo ? server.url(logo) : null },
    media: composition.media.map((m) => ({ ...m, kind })),
  };
}

async function failure(composition: Composition, options: Partial<Parameters<typeof loadAssets>[1]> = {}): Promise<MediaError> {
  const error = await loadAssets(composition, { fetchMedia: local, dir, ...options }).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(MediaError);
  return error as MediaError;
}

describe('loadAssets', () => {
  it('downloads, checks and scales pictures of every accepted type, a video and the logo', async () => {
    for (const path of ['/dashboard.png', '/chart.jpg', '/phone.webp', '/photo.avif', '/still.gif', '/untyped.png']) {
      const assets = await loadAssets(withMedia('image', path, '/logo.png'), { fetchMedia: local, dir });
      const picture = assets.images.get('image-1');
      expect(picture?.width).toBeGreaterThan(0);
      // Never larger than the 480p frame's content area with some room for camera moves.
      expect(picture?.width).toBeLessThanOrEqual(854);
      expect(assets.logo?.width).toBeGreaterThan(0);
    }
    const video = await loadAssets(withMedia('video', '/clip.mp4'), { fetchMedia: local, dir });
    expect(video.videos.get('image-1')).toMatchObject({ width: 480, height: 270, durationMs: 1000, hdr: false });
  });

  it('draws an SVG logo at the size it is shown, not at its own 24 × 24, and a bitmap never larger than it is', async () => {
    const side = Math.round(640 * layoutFor(854, 480).unit);
    const svg = await loadAssets(withMedia('image', '/dashboard.png', '/icon.svg'), { fetchMedia: local, dir });
    expect([svg.logo?.width, svg.logo?.height]).toEqual([side, side]);
    // Drawn before the decoded picture was let go.
    const { data } = svg.logo!.getContext('2d').getImageData(0, 0, side, side);
    expect(data.filter((_, i) => i % 4 === 3 && data[i]! > 0).length).toBeGreaterThan(side * side * 0.1);
    // As editors and icon sets write them: a prolog with a DOCTYPE, a licence before the drawing.
    for (const path of ['/illustrator.svg', '/licensed.svg']) {
      const logo = (await loadAssets(withMedia('image', '/dashboard.png', path), { fetchMedia: local, dir })).logo;
      expect([logo?.width, logo?.height]).toEqual([side, side]);
    }
    const png = await loadAssets(withMedia('image', '/dashboard.png', '/logo.png'), { fetchMedia: local, dir });
    expect([png.logo?.width, png.logo?.height]).toEqual([Math.min(240, side), Math.min(240, side)]);
  });

  it('plays an animated GIF given as a picture, as a video', async () => {
    const assets = await loadAssets(withMedia('image', '/demo.gif'), { fetchMedia: local, dir });
    expect(assets.images.has('image-1')).toBe(false);
    expect(assets.videos.get('image-1')).toMatchObject({ width: 320, height: 200, durationMs: 1000, hdr: false });
  });

  it('marks a phone\'s HDR clip (HEVC, HLG) to be tone-mapped', async () => {
    const video = await loadAssets(withMedia('video', '/hdr-clip.mov'), { fetchMedia: local, dir });
    expect(video.videos.get('image-1')).toMatchObject({ width: 320, height: 180, durationMs: 1000, hdr: true, primaries: 'bt2020', matrix: 'bt2020nc' });
    const untagged = await loadAssets(withMedia('video', '/hdr-clip-untagged.mov'), { fetchMedia: local, dir });
    expect(untagged.videos.get('image-1')).toMatchObject({ hdr: true, primaries: null, matrix: null, subject: { id: 'image-1' } });
  });

  it('sizes a phone\'s portrait clip as it is shown, upright, not as its pictures are stored', async () => {
    const video = await loadAssets(withMedia('video', '/portrait-clip.mp4'), { fetchMedia: local, dir });
    expect(video.videos.get('image-1')).toMatchObject({ width: 270, height: 480, durationMs: 1000 });
  });

  it('explains a 404', async () => {
    const error = await failure(withMedia('image', '/missing.png'));
    expect(error.message).toBe(`The image 'Dashboard' (${server.url('/missing.png')}) could not be downloaded: the server answered 404`);
    expect(error).toMatchObject({ mediaId: 'image-1', url: server.url('/missing.png'), transient: false });
  });

  it('takes a busy server (503, 429), a timeout or a failed connection as passing: worth another try', async () => {
    const busy = await failure(withMedia('image', '/busy.png'));
    expect(busy).toMatchObject({ transient: true, message: `The image 'Dashboard' (${server.url('/busy.png')}) could not be downloaded: the server answered 503` });
    const slowDown = await failure(withMedia('image', '/slow-down.png'));
    expect(slowDown).toMatchObject({ transient: true, message: expect.stringContaining('could not be downloaded: the server answered 429') });
    const slow = await failure(withMedia('image', '/slow.png'), { limits: { image: { maxBytes: 1024 * 1024, timeoutMs: 300 } } });
    expect(slow).toMatchObject({ transient: true, message: expect.stringContaining('could not be downloaded: no complete answer within 0.3 s') });
    // Nothing listens on port 9 (discard) here: the connection is refused.
    const closed = composeImages({ images: [{ url: 'http://127.0.0.1:9/dashboard.png', name: 'Dashboard' }], resolution: '480p', background: 'black' });
    const refused = await failure(closed);
    expect(refused).toMatchObject({ transient: true, message: "The image 'Dashboard' (http://127.0.0.1:9/dashboard.png) could not be downloaded: the server could not be reached (ECONNREFUSED)" });
  });

  it('takes every other failure as final: the same file fails the same way again', async () => {
    const final = [
      await failure(withMedia('image', '/missing.png')),
      await failure(withMedia('image', '/page.html')),
      await failure(withMedia('image', '/broken.png')),
      await failure(withMedia('image', '/moved-in-circles.png')),
      await failure(withMedia('image', '/dashboard.png'), { fetchMedia: publicMediaFetcher() }),
      await failure(withMedia('image', '/dashboard.png'), { limits: { image: { maxBytes: 1000, timeoutMs: 5000 } } }),
    ];
    expect(final.map((error) => error.transient)).toEqual(final.map(() => false));
  });

  it('takes a file whose server names only its kind (video/x-m4v, image/jpg, an SVG as text/xml): the bytes decide', async () => {
    const picture = await loadAssets(withMedia('image', '/loosely-typed.jpg', '/xml-typed.svg'), { fetchMedia: local, dir });
    expect(picture.images.get('image-1')?.width).toBeGreaterThan(0);
    expect(picture.logo?.width).toBeGreaterThan(0);
    const video = await loadAssets(withMedia('video', '/clip.m4v'), { fetchMedia: local, dir });
    expect(video.videos.get('image-1')).toMatchObject({ width: 480, height: 270 });
  });

  it('refuses a page that is not an image, by its content type', async () => {
    const error = await failure(withMedia('image', '/page.html'));
    expect(error.message).toBe(`The image 'Dashboard' (${server.url('/page.html')}) is not a PNG, JPEG, WebP, GIF or AVIF image: the server says it is text/html`);
  });

  it('refuses an iPhone photo (HEIC), which browsers cannot show either, by its bytes', async () => {
    const error = await failure(withMedia('image', '/photo.heic'));
    expect(error.message).toBe(`The image 'Dashboard' (${server.url('/photo.heic')}) is not a PNG, JPEG, WebP, GIF or AVIF image (it is HEIC)`);
  });

  it('refuses an image where a video was expected', async () => {
    const error = await failure(withMedia('video', '/dashboard.png'));
    expect(error.message).toContain('is not an MP4, WebM or QuickTime video: the server says it is image/png');
  });

  it('reports a damaged picture and a damaged video as undecodable, without ffmpeg output', async () => {
    const picture = await failure(withMedia('image', '/broken.png'));
    expect(picture.message).toBe(`The image 'Dashboard' (${server.url('/broken.png')}) could not be decoded: the file is damaged or not a picture`);
    const video = await failure(withMedia('video', '/broken.mp4'));
    expect(video.message).toBe(`The video 'Dashboard' (${server.url('/broken.mp4')}) could not be decoded: it is not a video that can be played`);
    expect(video.message).not.toMatch(/ffmpeg|ffprobe|Invalid data/i);
    expect(video.details).toBeTruthy();
  });

  it('reads a video only as the kind of file its bytes say it is: a manifest posing as an MP4 reaches no other file', async () => {
    const error = await failure(withMedia('video', '/manifest.mp4'));
    expect(error.message).toBe(`The video 'Dashboard' (${server.url('/manifest.mp4')}) could not be decoded: it is not a video that can be played`);
  });

  it('refuses an animated GIF or a video larger than 8K before decoding it: a few kilobytes can ask for a gigabyte a frame', async () => {
    const error = await failure(withMedia('image', '/huge-screen.gif'));
    expect(error.message).toBe(`The image 'Dashboard' (${server.url('/huge-screen.gif')}) is too large to use: 16000 × 16000 pixels`);
    expect(error.transient).toBe(false);
  });

  it('fails a medium whose checks outlast their time, naming it, as final: a crafted file cannot stall the render', async () => {
    const error = await failure(withMedia('video', '/clip.mp4'), { checkTimeoutMs: 1 });
    expect(error.message).toBe(`The video 'Dashboard' (${server.url('/clip.mp4')}) could not be checked within 0.001 s: it is not a file that can be played`);
    expect(error.transient).toBe(false);
  });

  it('refuses a private address unless development allows it', async () => {
    const error = await failure(withMedia('image', '/dashboard.png'), { fetchMedia: publicMediaFetcher() });
    expect(error.message).toBe(`The image 'Dashboard' (${server.url('/dashboard.png')}) could not be downloaded: 127.0.0.1 is a loopback address, which is not a public address`);
  });

  it('follows redirects, each through the same public-address check, within one time limit, but not round in circles or off the web', async () => {
    const assets = await loadAssets(withMedia('image', '/moved-twice.png'), { fetchMedia: local, dir });
    expect(assets.images.size).toBe(1);
    expect(server.requests.slice(-3)).toEqual(['/moved-twice.png', '/moved.png', '/dashboard.png']);
    const asked = server.requests.length;
    const circles = await failure(withMedia('image', '/moved-in-circles.png'));
    expect(circles.message).toContain('could not be downloaded: the server answered 302, a redirect that was not followed (more than 5 in a row');
    expect(server.requests.length - asked).toBe(6);
    const file = await failure(withMedia('image', '/moved-to-a-file.png'));
    expect(file.message).toContain('a redirect that was not followed');
    // One time limit for every hop, and the failure gives it whole.
    const slow = await failure(withMedia('image', '/slowly-moved-to-slow.png'), { limits: { image: { maxBytes: 25 * 1024 * 1024, timeoutMs: 1000 } } });
    expect(slow.message).toContain('could not be downloaded: no complete answer within 1 s');
    // Each hop goes through that check (fetchPublic): without development's allowance, this test's server is refused.
    const refused = await failure(withMedia('image', '/moved.png'), { fetchMedia: publicMediaFetcher() });
    expect(refused.message).toContain('is a loopback address, which is not a public address');
  });

  it('names a medium by its address without the query, where a signed address keeps its token', async () => {
    const error = await failure(withMedia('image', '/page.html?X-Amz-Signature=secret-token#top'));
    expect(error.message).toBe(`The image 'Dashboard' (${server.url('/page.html')}) is not a PNG, JPEG, WebP, GIF or AVIF image: the server says it is text/html`);
  });

  it('refuses a file over the size limit, and names the logo when it fails', async () => {
    const big = await failure(withMedia('image', '/dashboard.png'), { limits: { image: { maxBytes: 1000, timeoutMs: 5000 } } });
    expect(big.message).toContain('could not be downloaded: the answer is larger than 1000 bytes');
    const logo = await failure(withMedia('image', '/dashboard.png', '/page.html'));
    expect(logo.message).toBe(`The logo (${server.url('/page.html')}) is not a PNG, JPEG, WebP, GIF, AVIF or SVG image: the server says it is text/html`);
  });

  it('downloads one video at a time, beside the pictures: three videos of 250 MB are never held at once', async () => {
    const paths = ['/clip.mp4', '/clip.m4v', '/portrait-clip.mp4', '/dashboard.png', '/chart.jpg'];
    const composition = composeImages({ images: paths.map((path) => ({ url: server.url(path), name: path })), resolution: '480p', background: 'black', appName: 'Acme' });
    composition.media = composition.media.map((asset) => ({ ...asset, kind: /\.(mp4|m4v)$/.test(asset.url) ? 'video' : 'image' }));
    const under = { videos: 0, all: 0 };
    const most = { videos: 0, all: 0 };
    const fetchMedia: FetchMedia = async (url, limits) => {
      const video = /\.(mp4|m4v)$/.test(url);
      under.all++;
      if (video) under.videos++;
      most.all = Math.max(most.all, under.all);
      most.videos = Math.max(most.videos, under.videos);
      try {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return await local(url, limits);
      } finally {
        under.all--;
        if (video) under.videos--;
      }
    };
    const assets = await loadAssets(composition, { fetchMedia, dir });
    expect([assets.videos.size, assets.images.size]).toEqual([3, 2]);
    expect(most).toEqual({ videos: 1, all: 3 });
  });

  it('stops the other downloads at the first failure and reports it once they have ended: nothing still writes into the render\'s folder', async () => {
    const composition = composeImages({
      images: [{ url: server.url('/slow.png'), name: 'Slow' }, { url: server.url('/missing.png'), name: 'Missing' }],
      resolution: '480p', background: 'black', appName: 'Acme',
    });
    let slowEnded = false;
    const fetchMedia: FetchMedia = (url, limits) => {
      if (!url.endsWith('/slow.png')) return local(url, limits);
      // Answers only when told to stop, as a download still under way would.
      return new Promise((_, reject) => limits.signal?.addEventListener('abort', () => {
        slowEnded = true;
        reject(new Error('aborted'));
      }, { once: true }));
    };
    const error = await failure(composition, { fetchMedia });
    expect(error.message).toBe(`The image 'Missing' (${server.url('/missing.png')}) could not be downloaded: the server answered 404`);
    expect(slowEnded).toBe(true);
  });
});
