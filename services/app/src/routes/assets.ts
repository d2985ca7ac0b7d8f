import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';

const here = (name: string) => new URL(`../assets/${name}`, import.meta.url);
// The WebAuthn helper, served from the installed package on our own origin: no CDN.
const webauthnBundle = join(dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')), '..', 'dist', 'bundle', 'index.umd.min.js');

const ASSETS: Record<string, { body: string; type: string }> = {
  'app.css': { body: readFileSync(here('app.css'), 'utf8'), type: 'text/css; charset=utf-8' },
  'app.js': { body: readFileSync(here('app.js'), 'utf8'), type: 'text/javascript; charset=utf-8' },
  'progress.js': { body: readFileSync(here('progress.js'), 'utf8'), type: 'text/javascript; charset=utf-8' },
  'webauthn.js': { body: readFileSync(webauthnBundle, 'utf8'), type: 'text/javascript; charset=utf-8' },
};

/** /assets: the stylesheet and the scripts, read once at start. */
export function assetRoutes() {
  const app = new Hono();
  app.get('/:name', (c) => {
    const asset = ASSETS[c.req.param('name')];
    if (!asset) return c.notFound();
    return c.body(asset.body, 200, { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=300' });
  });
  return app;
}
