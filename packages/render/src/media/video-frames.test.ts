import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toRgb } from '../style/color.ts';
import { MediaError, RenderError } from '../errors.ts';
import { HDR_CLIP_COLOR, startMediaServer } from '../testing/media-server.ts';
import { VideoFrames, type VideoInput } from './video-frames.ts';

let server: Awaited<ReturnType<typeof startMediaServer>>;
let dir: string;
let hdrClip: string;
let untaggedHdrClip: string;
let demoGif: string;
beforeAll(async () => {
  server = await startMediaServer();
  dir = await mkdtemp(join(tmpdir(), 'vp-video-frames-'));
  const save = async (path: string) => {
    const file = join(dir, path.slice(1));
    await writeFile(file, Buffer.from(await (await fetch(server.url(path))).arrayBuffer()));
    return file;
  };
  [hdrClip, untaggedHdrClip, demoGif] = await Promise.all([save('/hdr-clip.mov'), save('/hdr-clip-untagged.mov'), save('/demo.gif')]);
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The largest difference of any channel between the middle pixel of a frame and a colour. */
async function offBy(video: VideoInput, hex: string): Promise<number> {
  const frames = new VideoFrames(video, 64, 36, undefined);
  try {
    const frame = await frames.next();
    const middle = (18 * 64 + 32) * 4;
    const { r, g, b } = toRgb(hex);
    return Math.max(...[r, g, b].map((value, channel) => Math.abs((frame[middle + channel] ?? 0) - value)));
  } finally {
    frames.close();
  }
}

describe('VideoFrames', () => {
  it('shows a phone\'s HDR clip in the colours an SDR screen shows', async () => {
    expect(await offBy({ file: hdrClip, format: 'mov', hdr: true }, HDR_CLIP_COLOR)).toBeLessThanOrEqual(10);
  });

  it('shows an HDR clip that leaves its primaries and matrix unstated as BT.2100 states them', async () => {
    expect(await offBy({ file: untaggedHdrClip, format: 'mov', hdr: true, primaries: null, matrix: null }, HDR_CLIP_COLOR)).toBeLessThanOrEqual(10);
  });

  it('names the clip, as a medium that cannot be used, when its decoder stops before a frame', async () => {
    const subject = { id: 'clip-1', url: 'https://media.example.com/clip.gif', label: 'The video "clip.gif"' };
    // A GIF states no transfer: taken for HDR, the tone mapping has no way from it.
    const frames = new VideoFrames({ file: demoGif, format: 'gif', hdr: true, primaries: null, matrix: null, subject }, 64, 40, undefined);
    try {
      const failure = await frames.next().then(() => null, (error: unknown) => error);
      expect(failure).toBeInstanceOf(MediaError);
      expect(failure).toMatchObject({ message: 'The video "clip.gif" could not be decoded: it is not a video that can be played', mediaId: 'clip-1', transient: false });
      expect((failure as MediaError).details).toMatch(/zscale|colorspace/i);
    } finally {
      frames.close();
    }
  });

  it('fails only the try, not the clip, when its decoder is killed before a frame', async () => {
    const subject = { id: 'clip-1', url: 'https://media.example.com/clip.mov', label: 'The video "clip.mov"' };
    const frames = new VideoFrames({ file: hdrClip, format: 'mov', hdr: true, primaries: 'bt2020', matrix: 'bt2020nc', subject }, 64, 36, undefined);
    try {
      // As the kernel kills a process for memory.
      frames['child'].process.kill('SIGKILL');
      const failure = await frames.next().then(() => null, (error: unknown) => error);
      expect(failure).toBeInstanceOf(RenderError);
      expect(failure).not.toBeInstanceOf(MediaError);
      expect((failure as RenderError).details).toMatch(/SIGKILL/);
    } finally {
      frames.close();
    }
  });

  it('would show it washed out without tone mapping: the clip really is HDR', async () => {
    expect(await offBy({ file: hdrClip, format: 'mov', hdr: false }, HDR_CLIP_COLOR)).toBeGreaterThan(30);
  });

  it('plays an animated GIF at 30 frames a second, and loops it', async () => {
    const frames = new VideoFrames({ file: demoGif, format: 'gif', hdr: false }, 64, 40, undefined);
    try {
      // A new GIF frame every 100 ms: every third frame at 30 a second; 30 frames later it has looped.
      const played = [];
      for (let i = 0; i < 34; i++) played.push(Buffer.from(await frames.next()));
      expect(played[1]?.equals(played[0]!)).toBe(true);
      expect(played[3]?.equals(played[0]!)).toBe(false);
      expect(played[30]?.equals(played[0]!)).toBe(true);
    } finally {
      frames.close();
    }
  });
});
