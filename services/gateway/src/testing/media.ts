import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A real picture in a real format, drawn by ffmpeg's test source. */
export async function makeImage(format: 'png' | 'jpg' | 'webp', size = '640x360'): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'vp-image-'));
  try {
    const file = join(dir, `image.${format}`);
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${size}`, '-frames:v', '1', file]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export type Probe = { width: number; height: number; codec: string; fps: string; audio: string | null; durationMs: number };

/** What ffprobe reads in an MP4 (given as bytes). */
export async function probe(bytes: Uint8Array): Promise<Probe> {
  const dir = await mkdtemp(join(tmpdir(), 'vp-probe-'));
  try {
    const file = join(dir, 'video.mp4');
    await writeFile(file, bytes);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file]);
    type Stream = { codec_type: string; codec_name: string; width: number; height: number; r_frame_rate: string };
    const info = JSON.parse(stdout) as { streams: Stream[]; format: { duration: string } };
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    const audio = info.streams.find((s) => s.codec_type === 'audio');
    return {
      width: video.width, height: video.height, codec: video.codec_name, fps: video.r_frame_rate,
      audio: audio?.codec_name ?? null, durationMs: Math.round(Number(info.format.duration) * 1000),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A local web server for media links: each path answers as given, anything else 404. */
export async function startMediaServer(files: Record<string, { type: string; body: Buffer }>) {
  const server = createServer((request, response) => {
    const file = files[request.url ?? ''];
    if (!file) return response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    response.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
