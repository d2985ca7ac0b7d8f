import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Brief, Pitch } from '@vp/contracts';

const exec = promisify(execFile);

/** One picture from an ffmpeg generator, as PNG (a screenshot) or JPEG (a photo). */
async function picture(dir: string, name: string, source: string): Promise<Buffer> {
  const file = join(dir, name);
  await exec('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-frames:v', '1', file]);
  return readFile(file);
}

/** Serves a screenshot, a photo-like picture and a logo from 127.0.0.1. */
export async function serveMedia(dir: string) {
  const files: Record<string, [string, Buffer]> = {
    '/dashboard.png': ['image/png', await picture(dir, 'dashboard.png', 'testsrc2=size=1600x1000')],
    '/fractal.jpg': ['image/jpeg', await picture(dir, 'fractal.jpg', 'mandelbrot=size=1600x1200')],
    '/logo.png': ['image/png', await picture(dir, 'logo.png', 'color=c=#ff5a36:size=256x256')],
  };
  const server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: (path: string) => base + path, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A real source file of this repository with a one-line change in the middle, as a patch. */
async function changedFile() {
  const path = 'packages/net/src/fetch.ts';
  const source = await readFile(new URL(`../../${path}`, import.meta.url), 'utf8');
  const lines = source.split('\n');
  const at = lines.findIndex((line) => line.includes('agent: false'));
  const context = (i: number) => ` ${lines[i] ?? ''}`;
  const patch = [
    `@@ -${at - 1},5 +${at - 1},5 @@`, context(at - 2), context(at - 1), '-      agent: http.globalAgent,', `+${lines[at]}`, context(at + 1), context(at + 2),
  ].join('\n');
  return { path, source, status: 'modified' as const, additions: 1, deletions: 1, patch };
}

/** A 10 s changelog at 16:9 with code, two pictures, a logo and every sound switch on. */
export async function changelog(url: (path: string) => string) {
  const brief = Brief.parse({
    intent: 'Announce release 2.4: pinned DNS, timeouts and a new dashboard',
    media: [
      { id: 'dashboard', kind: 'image', url: url('/dashboard.png'), name: 'Dashboard' },
      { id: 'fractal', kind: 'image', url: url('/fractal.jpg'), name: 'Render preview' },
    ],
    code: [await changedFile()],
    format: { template: 'changelog', durationMs: 10_000, aspect: '16:9' },
    brand: { name: 'Acme', primaryColor: '#ff5a36', backgroundColor: '#101522', logoUrl: url('/logo.png') },
  });
  const pitch = Pitch.parse({
    version: 1, title: 'Release 2.4', summary: 'Pinned DNS, timeouts and a new dashboard.', estimatedCredits: 10,
    music: 'A light electronic bed, around 100 BPM.',
    createdAt: new Date().toISOString(),
    shots: [
      { index: 0, title: 'Release 2.4 is here', durationMs: 2000, visual: 'Title card', text: 'Faster, safer fetching', voiceover: 'Release two point four is here.' },
      { index: 1, title: 'Every fetch is pinned', durationMs: 2600, visual: 'The change', codePaths: [brief.code[0]?.path ?? ''], voiceover: 'Every request now connects to the address it checked.' },
      { index: 2, title: 'A new dashboard', durationMs: 2400, visual: 'Screens', mediaIds: ['dashboard', 'fractal'], text: 'Every render at a glance', voiceover: 'And a new dashboard shows every render.' },
      { index: 3, title: 'Timeouts you control', durationMs: 1500, visual: 'Statement', text: 'Set timeoutMs per request', voiceover: 'Timeouts are yours to set.' },
      { index: 4, title: 'Upgrade today', durationMs: 1500, visual: 'End card', text: 'acme.dev/changelog' },
    ],
  });
  return { brief, pitch };
}
