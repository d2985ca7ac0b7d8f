import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeProduction } from '../composition/compose-production.ts';
import { themeFor } from '../draw/theme.ts';
import { x264Args } from '../encode/x264.ts';
import { QualityError } from '../errors.ts';
import { planComposition } from '../plan/plan.ts';
import { sampleBrief, samplePitch } from '../testing/fixtures.ts';
import { grabFrames } from './frames.ts';
import { reviewVideo } from './review.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vp-review-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A small test video from ffmpeg's generators: `picture` is a lavfi source. */
async function makeVideo(name: string, picture: string, seconds: number, audio = true): Promise<string> {
  const file = join(dir, name);
  await promisify(execFile)('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `${picture}:rate=30`,
    ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'] : []),
    '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    ...(audio ? ['-c:a', 'aac'] : []), file,
  ]);
  return file;
}

async function failures(file: string, expectation: Parameters<typeof reviewVideo>[1]) {
  const error = await reviewVideo(file, expectation).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(QualityError);
  return (error as QualityError).failures;
}

describe('reviewVideo', () => {
  const expected = { width: 320, height: 180, durationMs: 2000, sampleAtMs: [500, 1500] };

  it('passes a video that meets every expectation', async () => {
    const file = await makeVideo('good.mp4', 'testsrc2=size=320x180', 2);
    const review = await reviewVideo(file, expected);
    expect(review).toMatchObject({ width: 320, height: 180, fps: 30, durationMs: 2000 });
    expect(review.samples.every((s) => s.deviation > 10)).toBe(true);
  });

  it('fails a video of the wrong length, and one frame off is still fine', async () => {
    const file = await makeVideo('long.mp4', 'testsrc2=size=320x180', 2.5);
    expect(await failures(file, expected)).toEqual([{ check: 'duration', message: 'the video lasts 2.500 s, not 2.000 s' }]);
    await expect(reviewVideo(file, { ...expected, durationMs: 2500 - 33 })).resolves.toBeTruthy();
  });

  it('fails a blank video, naming the blank frames', async () => {
    const file = await makeVideo('blank.mp4', 'color=c=#101522:size=320x180', 2);
    const found = await failures(file, expected);
    expect(found.map((f) => f.check)).toEqual(['blank frame', 'blank frame']);
    expect(found[0]?.message).toBe('the frame at 0.50 s is blank');
  });

  it('fails the wrong size and a missing soundtrack', async () => {
    const file = await makeVideo('silent.mp4', 'testsrc2=size=320x240', 2, false);
    const found = await failures(file, expected);
    expect(found).toContainEqual({ check: 'size', message: 'the frame is 320×240, not 320×180' });
    expect(found).toContainEqual({ check: 'audio', message: 'there is no audio stream' });
    await expect(reviewVideo(file, { ...expected, height: 240, audio: false })).resolves.toBeTruthy();
  });

  it('fails a file that is not a video', async () => {
    const file = join(dir, 'not-a-video.mp4');
    await promisify(execFile)('sh', ['-c', `echo hello > ${file}`]);
    expect(await failures(file, expected)).toEqual([{ check: 'probe', message: 'the file is not a readable video' }]);
  });

  it('finds each scene\'s middle frame by its keyframe, where the middle falls between two frames', async () => {
    // 10 s cut as [3334, 3333, 3333] ms: the middles (1667, 5000.5, 8333.5 ms) are off the frame grid.
    const pitch = samplePitch([
      { title: 'One', durationMs: 3334, text: 'first' }, { title: 'Two', durationMs: 3333, text: 'second' }, { title: 'Three', durationMs: 3333, text: 'third' },
    ]);
    const composition = composeProduction({ brief: sampleBrief((path) => `https://media.example.com${path}`), pitch });
    const plan = await planComposition(composition, themeFor(composition.brand, null));
    expect(plan.midpoints).toEqual([1666, 5000, 8333]);
    expect(plan.posterFrame).toBe(50);

    // Encoded as the renderer does, with its keyframes at those times.
    const file = join(dir, 'scene-middles.mp4');
    await promisify(execFile)('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30', '-frames:v', String(plan.frames), ...x264Args(plan.midpoints), file,
    ]);
    const review = await reviewVideo(file, { width: 320, height: 180, durationMs: 10_000, audio: false, sampleAtMs: plan.midpoints, samplesAreKeyframes: true });
    expect(review.samples.every((sample) => sample.deviation > 10)).toBe(true);
    // The keyframe-only seek lands on the very frame a full decode finds there, not a later keyframe.
    const grab = (keyframesOnly: boolean) => grabFrames(file, plan.midpoints, { width: 320, height: 180, format: 'gray', keyframesOnly });
    const [sampled, decoded] = await Promise.all([grab(true), grab(false)]);
    expect(sampled.map((picture) => picture.data.length)).toEqual([57_600, 57_600, 57_600]);
    expect(sampled.map((picture) => picture.data)).toEqual(decoded.map((picture) => picture.data));
  });
});
