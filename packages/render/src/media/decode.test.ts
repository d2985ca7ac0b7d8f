import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decodeImage } from './decode.ts';
import type { MediaSubject } from './fetch-media.ts';

const MB = 1024 * 1024;

/** A 60-megapixel photo's size, all red, as JPEG: small to download, 240 MB decoded. */
async function largePhoto(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'vp-decode-'));
  try {
    const file = join(dir, 'large.jpg');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:size=9000x6600', '-frames:v', '1', file]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('decodeImage', () => {
  it('decodes one picture at a time and frees each once scaled: three 60-megapixel photos never need their full size together', async () => {
    const photo = await largePhoto();
    const fullSize = 9000 * 6600 * 4;
    const subject = (i: number): MediaSubject => ({ id: `photo-${i}`, url: `https://example.com/${i}.jpg`, label: `The image 'Photo ${i}'` });
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 5);
    try {
      const pictures = await Promise.all([0, 1, 2].map((i) => decodeImage(photo, 'jpeg', subject(i), { width: 1200, height: 900 })));
      peak = Math.max(peak, process.memoryUsage.rss());
      for (const picture of pictures) {
        expect([picture.width, picture.height]).toEqual([1200, 880]);
        const [r = 0, g = 0, b = 0] = picture.getContext('2d').getImageData(600, 440, 1, 1).data;
        expect(r).toBeGreaterThan(230);
        expect(Math.max(g, b)).toBeLessThan(25);
      }
    } finally {
      clearInterval(sampler);
    }
    // One full-size decode at a time; three at once, or three waiting for V8, would be 700 MB.
    expect((peak - before) / MB).toBeLessThan((1.5 * fullSize) / MB);
  });
});
