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

export type MediaAnswer = { type: string; body: Buffer } | { status: number };

/**
 * A local web server for media links: each path answers as given (a list: one answer per
 * request in turn, the last one from then on), anything else 404; `hits` counts the requests.
 */
export async function startMediaServer(files: Record<string, MediaAnswer | MediaAnswer[]>) {
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    const seen = hits.get(path) ?? 0;
    hits.set(path, seen + 1);
    const given = files[path];
    const answers = given === undefined ? [] : [given].flat();
    const answer = answers[Math.min(seen, answers.length - 1)];
    if (!answer) return response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    if ('status' in answer) return response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(`answered ${answer.status}`);
    response.writeHead(200, { 'content-type': answer.type, 'content-length': answer.body.length }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, hits: (path: string) => hits.get(path) ?? 0, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
