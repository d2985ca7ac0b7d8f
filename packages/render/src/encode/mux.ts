import { run } from '../process.ts';

/** Puts the picture and the soundtrack in one MP4, both copied as they are, the index up front for streaming. */
export function mux(videoFile: string, audioFile: string, outFile: string, signal?: AbortSignal): Promise<Buffer> {
  return run('ffmpeg', [
    '-v', 'error', '-y', '-i', videoFile, '-i', audioFile,
    '-map', '0:v:0', '-map', '1:a:0', '-c', 'copy', '-movflags', '+faststart', outFile,
  ], { signal, failure: 'The video and its soundtrack could not be put together' });
}
