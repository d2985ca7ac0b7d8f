import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createCanvas, type Canvas } from '../canvas.ts';

type Route = { status?: number; type?: string; body?: Buffer; headers?: Record<string, string>; delayMs?: number };

/** A picture with shapes and text, so it is not blank and compresses like a screenshot. */
export function samplePicture(width: number, height: number, hue: number): Canvas {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const gradient = ctx.createLinearGradient(0, 0, width, height);
  gradient.addColorStop(0, `hsl(${hue} 65% 55%)`);
  gradient.addColorStop(1, `hsl(${hue + 50} 60% 30%)`);
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
  for (let i = 0; i < 12; i++) {
    ctx.fillStyle = `hsla(${hue + i * 25} 80% 75% / 0.7)`;
    ctx.fillRect((i * 0.13 * width) % width, (i * 0.29 * height) % height, width * 0.18, height * 0.12);
  }
  ctx.fillStyle = '#ffffff';
  ctx.font = `700 ${Math.round(height / 8)}px "Noto Sans"`;
  ctx.fillText('Dashboard', width * 0.06, height * 0.2);
  return canvas;
}

/** A file that ffmpeg encodes from a generator. */
async function encode(source: string, options: string[], extension: string): Promise<Buffer> {
  const file = join(tmpdir(), `vp-media-${randomUUID()}.${extension}`);
  await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, ...options, file]);
  const body = await readFile(file);
  await rm(file, { force: true });
  return body;
}

function sampleClip(): Promise<Buffer> {
  return encode('testsrc2=size=480x270:rate=30', ['-t', '1', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast'], 'mp4');
}

function avifPicture(): Promise<Buffer> {
  return encode('testsrc2=size=640x400', ['-frames:v', '1', '-c:v', 'libaom-av1', '-still-picture', '1', '-cpu-used', '8'], 'avif');
}

/** A GIF of testsrc2 at 10 frames a second: a second of animation, or one still frame. */
function gif(animated: boolean): Promise<Buffer> {
  return encode('testsrc2=size=320x200:rate=10', animated ? ['-t', '1'] : ['-frames:v', '1'], 'gif');
}

/** The same GIF claiming a larger screen: its decoder sets out a canvas of that size for every frame. */
function withScreen(gif: Buffer, width: number, height: number): Buffer {
  const claimed = Buffer.from(gif);
  claimed.writeUInt16LE(width, 6);
  claimed.writeUInt16LE(height, 8);
  return claimed;
}

/** A logo as icon sets ship them: a 24 × 24 SVG. */
const ICON_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
  + '<circle cx="12" cy="12" r="10" fill="#ff5a36"/><path d="M7 12l3 3 7-7" stroke="#fff" stroke-width="2" fill="none"/></svg>';

/** The same logo as Illustrator exports it: a declaration, a generator comment and a DOCTYPE first. */
export const ILLUSTRATOR_SVG = '<?xml version="1.0" encoding="utf-8"?>\n'
  + '<!-- Generator: Adobe Illustrator 27.5.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->\n'
  + '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
  + ICON_SVG;

/** And as an icon set ships it: under a licence longer than a kilobyte. */
export const LICENSED_SVG = `<!--\n${'Licensed under the Apache License, Version 2.0; you may not use this file except in compliance with the License.\n'.repeat(30)}-->\n${ICON_SVG}`;

/** The start of an iPhone photo (HEIF with HEVC): enough to be recognised, never decoded. */
const HEIC_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'), Buffer.alloc(200, 0)]);

/** The one colour of `/hdr-clip.mov`. */
export const HDR_CLIP_COLOR = '#20a060';

/**
 * That colour as a phone records HDR: HEVC, 10 bits, HLG, BT.2020, SDR white at reference white
 * (203 nits). `tagged: false` states only the HLG transfer, as some exports leave a clip.
 */
function hdrClip({ tagged }: { tagged: boolean }): Promise<Buffer> {
  const toHdr = 'zscale=rin=pc:tin=bt709:min=gbr:pin=bt709:t=arib-std-b67:p=bt2020:m=bt2020nc:r=tv:npl=203,format=yuv420p10le';
  return encode(`color=c=${HDR_CLIP_COLOR}:size=320x180:rate=30,format=gbrp`, [
    '-t', '1', '-vf', tagged ? toHdr : `${toHdr},setparams=color_primaries=unknown:colorspace=unknown`,
    '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-tag:v', 'hvc1',
    '-color_trc', 'arib-std-b67', ...(tagged ? ['-color_primaries', 'bt2020', '-colorspace', 'bt2020nc'] : []),
  ], 'mov');
}

/**
 * The clip as a phone records a portrait video: the pictures stored landscape, with the track
 * header's matrix turning them a quarter turn for display.
 */
/**
 * A DASH manifest that passes for an MP4 (`ftyp` at its fifth byte, in a comment) and names a
 * file on the server's disk: ffmpeg left to pick the format from the bytes reads that file.
 */
function manifestPosingAsMp4(target: string): Buffer {
  return Buffer.from(`<!--ftypjp2 -->
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT1S" minBufferTime="PT1S">
 <Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000" width="480" height="270" codecs="avc1.64000d">
  <BaseURL>file://${target}</BaseURL>
 </Representation></AdaptationSet></Period>
</MPD>
`);
}

function turnedUpright(mp4: Buffer): Buffer {
  const turned = Buffer.from(mp4);
  const version = turned.indexOf('tkhd') + 4;
  // After the version and flags: times, track id and duration (wider in version 1), then 16 bytes.
  const matrix = version + 4 + (turned[version] === 1 ? 32 : 20) + 16;
  [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x40000000].forEach((value, i) => turned.writeInt32BE(value, matrix + i * 4));
  return turned;
}

/**
 * A local HTTP server with good and bad media for tests: pictures in every accepted type,
 * a short video (also as a phone's portrait clip), files typed loosely by their server, a phone's HDR clip (also without its colour tags), logos, and a 404, an
 * HTML page, an iPhone photo (HEIC), an animated GIF (also one claiming a 16000 × 16000 screen), damaged files, a redirect, a busy server
 * (503, 429) and a slow one.
 */
export async function startMediaServer(): Promise<{ url: (path: string) => string; close: () => Promise<void>; requests: string[] }> {
  const png = (w: number, h: number, hue: number) => samplePicture(w, h, hue).toBuffer('image/png');
  const logo = createCanvas(240, 240);
  const lctx = logo.getContext('2d');
  lctx.fillStyle = '#ff5a36';
  lctx.beginPath();
  lctx.arc(120, 120, 110, 0, Math.PI * 2);
  lctx.fill();
  const clip = await sampleClip();
  // A file of the server's own, which no download may reach.
  const secret = join(tmpdir(), `vp-secret-${randomUUID()}.mp4`);
  await writeFile(secret, clip);
  const animation = await gif(true);
  const chart = samplePicture(1200, 900, 30).toBuffer('image/jpeg', 85);
  const routes: Record<string, Route> = {
    '/dashboard.png': { type: 'image/png', body: png(1600, 1000, 210) },
    '/chart.jpg': { type: 'image/jpeg', body: chart },
    '/loosely-typed.jpg': { type: 'image/jpg', body: chart },
    '/phone.webp': { type: 'image/webp', body: samplePicture(700, 1400, 280).toBuffer('image/webp', 85) },
    '/photo.avif': { type: 'image/avif', body: await avifPicture() },
    '/still.gif': { type: 'image/gif', body: await gif(false) },
    '/demo.gif': { type: 'image/gif', body: animation },
    '/huge-screen.gif': { type: 'image/gif', body: withScreen(animation, 16_000, 16_000) },
    '/photo.heic': { type: 'application/octet-stream', body: HEIC_HEAD },
    '/logo.png': { type: 'image/png', body: logo.toBuffer('image/png') },
    '/icon.svg': { type: 'image/svg+xml', body: Buffer.from(ICON_SVG) },
    '/xml-typed.svg': { type: 'text/xml', body: Buffer.from(ICON_SVG) },
    '/illustrator.svg': { type: 'image/svg+xml', body: Buffer.from(ILLUSTRATOR_SVG) },
    '/licensed.svg': { type: 'image/svg+xml', body: Buffer.from(LICENSED_SVG) },
    '/clip.mp4': { type: 'video/mp4', body: clip },
    '/clip.m4v': { type: 'video/x-m4v', body: clip },
    '/portrait-clip.mp4': { type: 'video/mp4', body: turnedUpright(clip) },
    '/hdr-clip.mov': { type: 'video/quicktime', body: await hdrClip({ tagged: true }) },
    '/hdr-clip-untagged.mov': { type: 'video/quicktime', body: await hdrClip({ tagged: false }) },
    '/untyped.png': { type: 'application/octet-stream', body: png(400, 300, 120) },
    '/page.html': { type: 'text/html', body: Buffer.from('<!doctype html><title>Not an image</title>') },
    '/broken.png': { type: 'image/png', body: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(400, 7)]) },
    '/manifest.mp4': { type: 'video/mp4', body: manifestPosingAsMp4(secret) },
    '/broken.mp4': { type: 'video/mp4', body: Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(4000, 3)]) },
    '/moved.png': { status: 302, headers: { location: '/dashboard.png' } },
    '/moved-twice.png': { status: 301, headers: { location: '/moved.png' } },
    '/moved-in-circles.png': { status: 302, headers: { location: '/moved-in-circles.png' } },
    '/moved-to-a-file.png': { status: 302, headers: { location: 'file:///etc/passwd' } },
    '/slowly-moved-to-slow.png': { status: 302, headers: { location: '/slow.png' }, delayMs: 600 },
    '/busy.png': { status: 503, type: 'text/plain', body: Buffer.from('try again later') },
    '/slow-down.png': { status: 429, type: 'text/plain', body: Buffer.from('too many requests'), headers: { 'retry-after': '1' } },
    '/slow.png': { type: 'image/png', body: png(400, 300, 60), delayMs: 1500 },
  };
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const route = routes[(req.url ?? '').split('?')[0]!];
    if (!route) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const answer = () => res.writeHead(route.status ?? 200, { ...(route.type ? { 'content-type': route.type } : {}), ...route.headers }).end(route.body);
    if (route.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(secret, { force: true });
    },
    requests,
  };
}
