/**
 * Encoder settings, shared by the renderer and the benchmark's encoder-only run.
 *
 * - preset `ultrafast` with three of its cuts put back: CABAC (a smaller file for the same
 *   picture), the deblocking filter (clean text edges) and the 8x8 transform with intra 8x8/4x4
 *   partitions (sharp detail in code scenes). Measured on the benchmark's changelog frames
 *   against `superfast`: two thirds of x264's CPU time, half its memory (120 MB against 215 MB
 *   at 1080p) and a picture at least as close to the frames drawn (SSIM 29.0 dB against
 *   28.7 dB, PSNR 55.2 dB against 52.9 dB), for a file ~45% larger, still well under 1 MB a
 *   second. On 2 cores the encoder and the drawing share the machine: a cheaper encoder is a
 *   faster render.
 * - crf 20: text stays crisp on flat backgrounds.
 * - no B-frames and no lookahead (ultrafast's): x264 holds the fewest 1080p frames in flight.
 * - threads 0: x264's choice, frame threads for every core.
 * - keyframes every 2 s and at each scene's midpoint: the share page's player seeks fast,
 *   and the review decodes its sample frames without decoding a whole group of pictures.
 */
export const X264 = {
  preset: 'ultrafast',
  params: 'cabac=1:deblock=0,0:8x8dct=1:partitions=i8x8,i4x4',
  crf: 20,
  threads: 0,
  keyframeInterval: 60,
} as const;

/** Output options for an H.264 yuv420p stream tagged BT.709, as players expect for HD. */
export function x264Args(keyframeTimesMs: number[] = []): string[] {
  const force = keyframeTimesMs.length ? ['-force_key_frames', keyframeTimesMs.map((ms) => (ms / 1000).toFixed(3)).join(',')] : [];
  return [
    '-c:v', 'libx264', '-preset', X264.preset, '-crf', String(X264.crf), '-threads', String(X264.threads),
    '-x264-params', X264.params,
    '-g', String(X264.keyframeInterval), ...force,
    '-pix_fmt', 'yuv420p',
    '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv',
  ];
}

/**
 * ffmpeg's own RGB to limited-range BT.709 YUV, for RGBA sources: the benchmark's encoder-only
 * run converts with it, and `I420Frame`'s test holds the renderer's conversion to it.
 * `full_chroma_inp` reads chroma at full width and lets swscale's vectorised scaler halve it,
 * where its default averages pixel pairs in plain C (8.5 → 5.2 ms a 1080p frame here).
 */
export const RGB_TO_BT709 = 'scale=out_color_matrix=bt709:out_range=tv:flags=bicubic+full_chroma_inp';
