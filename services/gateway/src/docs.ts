import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Scalar } from '@scalar/hono-api-reference';
import { Hono } from 'hono';
import type { GatewayEnv } from './deps.ts';

/** The reference page's address. */
export const DOCS = '/docs';
const PAGE_TITLE = 'Video Production Service API';
/** A file named by its package's version never changes: any cache may keep it for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The reference page's script, as the installed @scalar/api-reference package ships it (one file, no further loads). */
function referenceScript() {
  const root = dirname(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')));
  const file = join(root, 'dist/browser/standalone.js');
  let loaded: Promise<{ plain: Buffer; gzipped: Buffer }> | null = null;
  return {
    /** The address the page loads it from: versioned, so a new release is a new address. */
    path: `/docs/api-reference-${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}.js`,
    /** Read and compressed once, at its first request. */
    bytes: () => (loaded ??= readFile(file).then(async (plain) => ({ plain, gzipped: await promisify(gzip)(plain) }))),
  };
}

/**
 * /docs: the API reference page, drawn from /v1/openapi.json by Scalar's reference. Its script is
 * the installed package's, served from this origin, so the page works offline and runs no
 * third party's code beside the link pages; it runs under the page's nonce (the CSP names no other
 * script), and asks for no fonts or telemetry elsewhere.
 */
export function docsRoutes() {
  const app = new Hono<GatewayEnv>();
  const script = referenceScript();
  const scriptPath = script.path;
  app.get(DOCS, Scalar((c) => ({
    url: '/v1/openapi.json', pageTitle: PAGE_TITLE, cdn: scriptPath, nonce: c.get('secureHeadersNonce'), withDefaultFonts: false, telemetry: false, showDeveloperTools: 'never',
  })));
  app.get(scriptPath, async (c) => {
    const { plain, gzipped } = await script.bytes();
    const zipped = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    c.header('Cache-Control', IMMUTABLE);
    c.header('Vary', 'Accept-Encoding');
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    if (zipped) c.header('Content-Encoding', 'gzip');
    return c.body(new Uint8Array(zipped ? gzipped : plain));
  });
  return app;
}
