import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import { ApiError, CreateRenderForm, ErrorBody, Render, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@vp/contracts';
import type { Config } from '@vp/config';
import { checkRenderVideoSignature, finishedRenderVideo, presentRender, readRender, requestRender, type OneCallRenderDeps, type RenderRecord } from '@vp/projects';
import { serveBlob } from '../blob-files/serve-blob.ts';
import { errorResponse } from '../http/errors.ts';
import { readRenderRequest } from './form.ts';

/** The one-call renders API: the domain's renders, and the settings of the answers. */
export type RenderDeps = OneCallRenderDeps & { config: Config };

export type RenderRouteDeps<E extends Env> = RenderDeps & {
  /** The authenticated caller of a request (set by the auth middleware). */
  caller: (c: Context<E>) => { accountId: string };
  /** When the request arrived: reading the upload spends the wait budget too. */
  receivedAt: (c: Context<E>) => number;
  /** The clock the wait budget is read on (`Date.now`; tests move one of their own). */
  now?: () => number;
};

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(ErrorBody, description);
const RenderResponse = z.object({ render: Render });
const ERRORS = {
  401: error('Missing, invalid or revoked API key.'),
  403: error('The key lacks the `renders` scope (`api_key_missing_scope`).'),
  404: error('No such render for this key\'s account (`not_found`).'),
  429: error('More than 30 requests a minute with this key (`rate_limited`); see Retry-After.'),
} as const;
const tags = ['Renders'];
const Id = z.object({ id: z.uuid().meta({ param: { name: 'id', in: 'path' } }) });

const routes = {
  create: createRoute({
    method: 'post', path: '/', tags, summary: 'Render 1 to 10 images into a video in one call',
    description: [
      'A title card with `appName`, each image for 3 s with a slow camera move, and an end card; 30 fps, H.264 + AAC MP4 at the',
      'resolution asked for (480p 854×480, 720p 1280×720, 1080p 1920×1080, 4K 3840×2160), with a music bed and transition',
      'effects. Images are PNG, JPEG or WebP by their bytes, whole, at most 10 MB and 60 million pixels each. With `wait=true` (the default) the request',
      'holds until the video is ready, up to 90 seconds; then it answers 202 and the render goes on (read it with GET).',
    ].join(' '),
    request: { body: { required: true, content: { 'multipart/form-data': { schema: CreateRenderForm } } } },
    responses: {
      200: json(RenderResponse, 'Finished (`done` with `videoUrl`, or `failed` with `error`)'),
      202: json(RenderResponse, 'Still rendering (`queued` or `rendering`, with `progress`); read it with GET /v1/renders/{id}'),
      400: error('The form is not valid; `issues` lists every bad part (no images, more than 10, a file that is not a PNG, JPEG or WebP image, one that is damaged or cut short, one over 10 MB or 60 million pixels, an unknown value, an accent that is not a CSS colour, a text field sent as a file or twice, a body that is not multipart/form-data, a form over 110 MB).'),
      503: {
        ...error(`Renders cannot be started right now (Temporal cannot be reached); try again after \`Retry-After\` seconds (${UNAVAILABLE_RETRY_AFTER_SECONDS}).`),
        headers: z.object({ 'Retry-After': z.string().meta({ description: 'Seconds to wait.' }) }),
      },
      ...ERRORS,
    },
  }),
  get: createRoute({
    method: 'get', path: '/{id}', tags, summary: 'A render: its status, progress and, once done, a signed video address',
    request: { params: Id },
    responses: { 200: json(RenderResponse, 'The render'), 400: error('Invalid id; `issues` lists the problem.'), ...ERRORS },
  }),
};

/** /v1/renders (scope `renders`). Mounted behind auth and rate limits. */
export function renderRoutes<E extends Env>(deps: RenderRouteDeps<E>) {
  const app = new OpenAPIHono<E>();

  // Documented from the schema above; read by hand, so every bad part of the form is reported at once.
  app.openAPIRegistry.registerPath(routes.create);
  app.post('/', async (c) => {
    // The wait budget counts from the request, as the caller's own timeout does: reading the
    // upload and storing its images spend it too.
    const deadline = deps.receivedAt(c) + deps.config.render.waitMs;
    const { accountId } = deps.caller(c);
    const accepted = await acceptRender(c, deps, accountId);
    if ('issues' in accepted) {
      const [first] = accepted.issues;
      return errorResponse(c, 400, { error: `Invalid render request: ${first?.path ? `${first.path}: ` : ''}${first?.message}`, issues: accepted.issues });
    }
    if (accepted.wait) await deps.workflows.waitForRender(accepted.id, deadline - (deps.now ?? Date.now)());
    const row = await readRender(deps.db, accountId, accepted.id);
    const finished = row.status === 'done' || row.status === 'failed';
    return c.json({ render: present(deps, row) }, finished ? 200 : 202);
  });

  app.openapi(routes.get, async (c) => {
    const row = await readRender(deps.db, deps.caller(c).accountId, c.req.valid('param').id);
    return c.json({ render: present(deps, row) }, 200);
  });

  return app;
}

/**
 * Reads the form and starts its render. Only the render's id leaves: the images' bytes, up to
 * 100 MB, are in the blob store by then, and must not stay in memory while the caller waits.
 */
async function acceptRender(c: Context, deps: RenderDeps, accountId: string): Promise<{ id: string; wait: boolean } | { issues: NonNullable<ErrorBody['issues']> }> {
  const read = await readRenderRequest(c, deps.config.render.bodyLimitBytes);
  if (!read.ok) return { issues: read.issues };
  const { id } = await requestRender(deps, accountId, read.request);
  return { id, wait: read.request.wait === 'true' };
}

const videoRoute = createRoute({
  method: 'get', path: '/renders/{id}/video.mp4', tags, security: [], summary: 'A finished render\'s video (the signed `videoUrl`; no key)',
  description: 'Served with byte ranges (`Range`, 206, 416, `Accept-Ranges`, `Content-Range`) and validators (`ETag`, 304). The address works for 24 hours after it was read; a changed or expired signature is refused.',
  request: {
    params: Id,
    query: z.object({ expires: z.string().meta({ description: 'Unix seconds' }), signature: z.string().meta({ description: 'HMAC-SHA256, base64url' }) }),
  },
  responses: {
    200: { description: 'The MP4', content: { 'video/mp4': { schema: z.string().meta({ type: 'string', format: 'binary' }) } } },
    206: { description: 'The bytes of the range asked for', content: { 'video/mp4': { schema: z.string().meta({ type: 'string', format: 'binary' }) } } },
    304: { description: 'Not modified: the `If-None-Match` or `If-Modified-Since` sent still holds' },
    403: error('The signature does not match (`forbidden`); or an API key was sent, which this address does not take (`api_key_scope`).'),
    404: error('No finished render with this id (`not_found`).'),
    410: error('The address has expired (`expired`); read the render again for a new one.'),
    416: error('The range is outside the file (`range_not_satisfiable`); `Content-Range: bytes */<size>`.'),
  },
});

/** The signed video addresses of renders, outside /v1: they work without a key until they expire. */
export function renderVideoRoutes(deps: RenderDeps) {
  const app = new OpenAPIHono();
  app.openAPIRegistry.registerPath(videoRoute);
  app.get('/renders/:id/video.mp4', async (c) => {
    const id = c.req.param('id');
    const check = checkRenderVideoSignature(deps.config.secrets.urls, id, c.req.query());
    if (!check.ok && check.reason === 'expired') throw new ApiError(410, 'This video address has expired; read the render again for a new one.', 'expired');
    if (!check.ok) throw new ApiError(403, 'This video address is not valid.', 'forbidden');
    const file = await finishedRenderVideo(deps.db, id);
    if (!file) throw new ApiError(404, 'Render not found.', 'not_found');
    const maxAge = Math.max(0, Math.floor((check.expiresAt.getTime() - Date.now()) / 1000));
    return serveBlob(c, deps.blobs, file, { cacheControl: `private, max-age=${maxAge}`, notFound: 'The video file is missing.' });
  });
  return app;
}

/** The API's view, with a video address signed afresh for 24 hours once it is done. */
const present = (deps: RenderDeps, row: RenderRecord) => presentRender({ baseUrl: deps.config.baseUrl, urlSecret: deps.config.secrets.urls }, row);
