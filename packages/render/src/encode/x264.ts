/**
 * Encoder settings, shared by the renderer and the benchmark's encoder-only run.
 *
 * - preset `superfast`: motion graphics are flat colour, text and slow moves. On 2 cores
 *   `veryfast` and slower cost 1.5-2x the time for a file ~40% smaller, and they would make
 *   the encoder, not the drawing, the bottleneck; `ultrafast` drops CABAC and the deblocking
 *   filter, which blurs and blocks text edges at the same rate.
 * - crf 20: text stays crisp on flat backgrounds; the files stay well under 1 MB a second.
 * - tune `animation` is left out: more reference frames and stronger deblocking for cartoons
 *   cost speed and soften the small text of code scenes.
 * - threads 0 (x264's choice: frame threads for every core), `rc-lookahead` 10 and no
 *   `sync-lookahead`: the defaults hold ~40 MB more 1080p frames in flight for no visible gain
 *   on this material, and the render shares the machine's memory with the drawing.
 * - keyframes every 2 s and at each scene's midpoint: the share page's player seeks fast,
 *   and the review decodes its sample frames without decoding a whole group of pictures.
 */
export const X264 = {
  preset: 'superfast',
  crf: 20,
  threads: 0,
  lookahead: 10,
  keyframeInterval: 60,
} as const;

/** Output options for an H.264 yuv420p stream tagged BT.709, as players expect for HD. */
export function x264Args(keyframeTimesMs: number[] = []): string[] {
  const force = keyframeTimesMs.length ? ['-force_key_frames', keyframeTimesMs.map((ms) => (ms / 1000).toFixed(3)).join(',')] : [];
  return [
    '-c:v', 'libx264', '-preset', X264.preset, '-crf', String(X264.crf), '-threads', String(X264.threads),
    '-x264-params', `rc-lookahead=${X264.lookahead}:sync-lookahead=0`,
    '-g', String(X264.keyframeInterval), ...force,
    '-pix_fmt', 'yuv420p',
    '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv',
  ];
}

/** RGB to limited-range BT.709 YUV: the matrix the stream is tagged with. */
export const RGB_TO_BT709 = 'scale=out_color_matrix=bt709:out_range=tv';
