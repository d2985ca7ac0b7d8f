import { describe, expect, it } from 'vitest';
import { checkRenderTools, ffmpegLacks } from './tools.ts';

describe('checkRenderTools', () => {
  it('finds ffmpeg, ffprobe and espeak-ng, and every encoder and filter the renderer uses', async () => {
    const versions = await checkRenderTools();
    expect(versions.ffmpeg).toMatch(/^ffmpeg version/);
    expect(versions.ffprobe).toMatch(/^ffprobe version/);
    expect(versions['espeak-ng']).toMatch(/eSpeak NG/);
  });

  it('names what a minimal ffmpeg build lacks', () => {
    const encoders = [' V....D libx264              libx264 H.264 / AVC', ' A....D aac                  AAC (Advanced Audio Coding)'].join('\n');
    const filters = [' ..C ebur128           A->N       EBU R128 scanner.', ' TSC alimiter          A->A       Audio lookahead limiter.',
      ' ... amix              N->A       Audio mixing.', ' T.C sidechaincompress AA->A      Sidechain compressor.'].join('\n');
    expect(ffmpegLacks({ encoders, filters })).toEqual(['the zscale filter', 'the tonemap filter']);
    expect(ffmpegLacks({ encoders: '', filters })).toEqual(['the libx264 encoder', 'the aac encoder', 'the zscale filter', 'the tonemap filter']);
  });
});
