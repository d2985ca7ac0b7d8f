import { run } from './process.ts';

export interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  /** `smpte2084` (PQ) or `arib-std-b67` (HLG) for HDR video. */
  color_transfer?: string;
  color_primaries?: string;
  /** The YUV matrix, such as `bt2020nc`. */
  color_space?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  nb_frames?: string;
  duration?: string;
  sample_rate?: string;
  channels?: number;
  /** A display matrix (phones record portrait clips as landscape pictures turned for display). */
  side_data_list?: { rotation?: number }[];
  tags?: { rotate?: string };
}

export interface Probe {
  streams: ProbeStream[];
  format: { duration?: string; size?: string; format_name?: string };
}

/** ffprobe's description of a media file; read with the demuxer `format` when given, else as ffprobe guesses. */
export async function probe(file: string, signal?: AbortSignal, format?: string): Promise<Probe> {
  const out = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...(format ? ['-f', format] : []), file], {
    signal, failure: 'The file could not be read as a video',
  });
  const parsed = JSON.parse(out.toString()) as Partial<Probe>;
  return { streams: parsed.streams ?? [], format: parsed.format ?? {} };
}

/** "30/1" → 30. */
export function frameRate(rate: string | undefined): number {
  const [num, den] = (rate ?? '0/1').split('/').map(Number);
  return num && den ? num / den : 0;
}
