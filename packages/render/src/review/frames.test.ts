import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grabFrames } from './frames.ts';

let dir: string;
const PATH = process.env.PATH;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vp-frames-test-'));
});
afterAll(async () => {
  process.env.PATH = PATH;
  await rm(dir, { recursive: true, force: true });
});

describe('grabFrames', () => {
  it('decodes into a folder of its own inside the work folder it is given, and removes it', async () => {
    const video = join(dir, 'video.mp4');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30', '-t', '1', '-pix_fmt', 'yuv420p', video]);
    // The real ffmpeg, behind a wrapper that notes the files it is asked to write.
    const bin = join(dir, 'bin');
    const calls = join(dir, 'ffmpeg-arguments');
    await mkdir(bin);
    await writeFile(join(bin, 'ffmpeg'), `#!/bin/sh\nprintf '%s\\n' "$@" >> '${calls}'\nPATH='${PATH}' exec ffmpeg "$@"\n`);
    await chmod(join(bin, 'ffmpeg'), 0o755);
    const workDir = join(dir, 'work');
    await mkdir(workDir);

    process.env.PATH = `${bin}:${PATH}`;
    try {
      const [picture] = await grabFrames(video, [500], { width: 32, height: 18, format: 'gray', workDir });
      expect(picture?.data.length).toBe(32 * 18);
    } finally {
      process.env.PATH = PATH;
    }

    const written = (await readFile(calls, 'utf8')).split('\n').filter((arg) => arg.endsWith('.raw'));
    expect(written).toEqual([expect.stringMatching(new RegExp(`^${workDir}/vp-frames-[^/]+/0\\.raw$`))]);
    expect(await readdir(workDir)).toEqual([]);
  });

  it('reads only keyframes when asked to: a time with no keyframe gets an empty picture', async () => {
    const video = join(dir, 'one-keyframe.mp4');
    await promisify(execFile)('ffmpeg', [
      '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30', '-t', '1', '-c:v', 'libx264', '-g', '300', '-pix_fmt', 'yuv420p', video,
    ]);
    const [first, middle] = await grabFrames(video, [0, 500], { width: 32, height: 18, format: 'gray', keyframesOnly: true });
    const [decoded] = await grabFrames(video, [0], { width: 32, height: 18, format: 'gray' });
    expect(first?.data).toEqual(decoded?.data);
    expect(middle?.data.length).toBe(0);
  });
});
