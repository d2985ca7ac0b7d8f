import { describe, expect, it } from 'vitest';
import { checkRenderTools } from './tools.ts';

describe('checkRenderTools', () => {
  it('finds ffmpeg, ffprobe and espeak-ng', async () => {
    const versions = await checkRenderTools();
    expect(versions.ffmpeg).toMatch(/^ffmpeg version/);
    expect(versions.ffprobe).toMatch(/^ffprobe version/);
    expect(versions['espeak-ng']).toMatch(/eSpeak NG/);
  });
});
