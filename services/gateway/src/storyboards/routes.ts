import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { BlobStore } from '@vp/blobs';
import { ApiError, ErrorBody } from '@vp/contracts';
import { checkStillSignature, stillKey } from '@vp/projects';
import { serveBlob } from '../blob-files/serve-blob.ts';

const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorBody } } });

const stillRoute = createRoute({
  method: 'get', path: '/storyboards/{productionId}/{version}/{shot}', tags: ['Productions'], security: [],
  summary: 'A storyboard still: a pitch shot\'s `previewUrl` (signed; no key)',
  description: 'The frame the video will show at the shot\'s key moment, drawn by the renderer when the pitch was written (JPEG, 640 px wide). The address works for 7 days after the still was drawn; a changed or expired signature is refused.',
  request: {
    params: z.object({
      productionId: z.uuid(),
      version: z.string().regex(/^\d{1,4}$/).meta({ description: 'The pitch version' }),
      shot: z.string().regex(/^\d{1,2}\.jpg$/).meta({ description: 'The shot\'s index, then `.jpg`', example: '0.jpg' }),
    }),
    query: z.object({ expires: z.string().meta({ description: 'Unix seconds' }), signature: z.string().meta({ description: 'HMAC-SHA256, base64url' }) }),
  },
  responses: {
    200: { description: 'The still', content: { 'image/jpeg': { schema: z.string().meta({ type: 'string', format: 'binary' }) } } },
    403: error('The signature does not match (`forbidden`).'),
    404: error('No such still (`not_found`).'),
    410: error('The address has expired (`expired`); read the production again for a new one.'),
  },
});

/** Storyboard stills at their signed addresses, outside /v1: they work without a key until they expire. */
export function storyboardRoutes(deps: { blobs: BlobStore; urlSecret: string }) {
  const app = new OpenAPIHono();
  app.openAPIRegistry.registerPath(stillRoute);
  app.get('/storyboards/:productionId/:version/:shot', async (c) => {
    const { productionId, version, shot } = c.req.param();
    const shotIndex = /^(\d{1,2})\.jpg$/.exec(shot)?.[1];
    if (!z.uuid().safeParse(productionId).success || !/^\d{1,4}$/.test(version) || shotIndex === undefined) throw new ApiError(404, 'Still not found.', 'not_found');
    const still = { productionId, pitchVersion: Number(version), shotIndex: Number(shotIndex) };
    const check = checkStillSignature(deps.urlSecret, still, c.req.query());
    if (!check.ok && check.reason === 'expired') throw new ApiError(410, 'This still\'s address has expired; read the production again for a new one.', 'expired');
    if (!check.ok) throw new ApiError(403, 'This still\'s address is not valid.', 'forbidden');
    const maxAge = Math.max(0, Math.floor((check.expiresAt.getTime() - Date.now()) / 1000));
    return serveBlob(c, deps.blobs, stillKey(still), { cacheControl: `private, max-age=${maxAge}`, notFound: 'Still not found.' });
  });
  return app;
}
