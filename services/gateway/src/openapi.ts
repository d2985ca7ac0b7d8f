import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';

const DESCRIPTION = `
Push a brief, get a free pitch, greenlight it, receive a finished motion-design video.

**Authentication.** Send \`Authorization: Bearer svc_live_…\` on every /v1 route (except this document
and the device-flow routes). A key acts as its account, limited to its scopes: \`productions\`
(/v1/productions and /v1/webhooks), \`renders\`, \`capture\`, \`import\`. Keys used outside /v1 get 403 \`api_key_scope\`.

**Workspaces.** Pass \`workspaceId\` to target a workspace other than your personal one. Owners and editors
may write; viewers read (writes answer 403 \`forbidden\`). A workspace you cannot see answers 404.

**Errors.** Every non-2xx body is \`{ error, code?, issues? }\`; a 400 for a request that does not fit its
schema lists each problem in \`issues\` as \`{ path, message }\` (a body that is not JSON at all has one, at path \`""\`).
Text must be UTF-8 without NUL or half a UTF-16 surrogate pair (\`\\ud800\` alone): such text is refused the same way.
Besides the answers each route lists, any route may answer 405 \`method_not_allowed\` (with \`Allow\`), 413
\`payload_too_large\` (a body over the server's limit: 32 MiB for a new production's brief, 1 MiB for others, by default), 415 \`unsupported_media_type\` (a body
not sent as JSON), 431 \`headers_too_large\` (an address and headers past 16 KiB) and 500 \`internal\`. Every response carries \`X-Request-Id\`.

**Rate limits.** Fixed one-minute windows: /v1/productions 120 per key, /v1/webhooks 60 per key,
/v1/renders 30 per key, /v1/keys 60 per IP address, DELETE /v1/keys/current 30 per key, /production-links
30 per IP address. A 429 carries \`Retry-After\` (seconds) and code \`rate_limited\`; responses carry
\`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`.

**Credits and pitches.** A video costs 1 credit per started second of its length. Pitches are free;
a workspace may have 100 pitch versions written per calendar month (UTC) unless an operator sets
another cap (429 \`cap\`). Each production allows 3 comment rounds (\`revisionsLeft\`).

**Lists.** \`limit\` defaults to 20 (1 to 100); newest first, ties broken by id; pass \`nextCursor\` back as
\`cursor\` for the next page.

**Webhooks.** Up to 10 endpoints per workspace (409 \`limit\`), https on public addresses only. Each event
is POSTed as a \`WebhookEventPayload\` signed in \`Service-Signature: t=…,v1=…\` (HMAC-SHA256 of \`<t>.<raw body>\`;
two \`v1\` for 24 hours after a roll), with \`Service-Event-Id\` (stable across retries) and \`Service-Event-Type\`.
15 s to answer; any 2xx acknowledges; other answers (redirects too) are retried 30 s, 2 min, 10 min, 1 h and
6 h later, then the delivery is \`exhausted\`. 410 switches the endpoint off at once, as do 10 failures in a
row with no success for 24 hours; re-enabling resets the count.

**Videos.** A delivered production carries \`delivery.shareUrl\` (\`{app_url}/share/{exportId}\`, a public page that
plays the video with its poster frame) and \`delivery.editUrl\` (\`{app_url}/projects/{projectId}\`, the editable project in the app, for the members of the workspace, where owners and editors save versions and export:
its stored, versioned composition, which can be exported again). While the video is made, \`queue\` on the production
shows the phase (\`preparing\`, \`planning\`, \`building\`, \`reviewing\`, \`polishing\`, \`exporting\`), when the current try
started, whether it is a retry, and the progress in words; each phase adds one \`note\` to the timeline and sends
\`production.progress\`. The render farm tries 3 times; then the production fails with a readable \`error\` and a full
refund. Video files are served with byte ranges (206, 416) and validators.

**Storyboard.** Once a pitch is written, the renderer draws one still per shot at the shot's key moment (the frame the
video will show then), and each shot gains \`previewUrl\`: a signed JPEG address that works without a key for 7 days
after it was drawn (an expired address answers 410 \`expired\`, a changed one 403 \`forbidden\`). It is absent until
the stills are drawn, a few seconds after \`pitch_ready\`, and on pitches written before storyboards.

**Renders** (\`/v1/renders\`, scope \`renders\`): 1 to 10 PNG, JPEG or WebP images of at most 10 MB each (checked by their
bytes) in a multipart/form-data body. \`wait=true\` holds up to 90 seconds, then answers 202 while the render goes on.
\`videoUrl\` is signed and works without a key for 24 hours from the read that returned it; read the render again for a
new one (an expired address answers 410 \`expired\`, a changed one 403 \`forbidden\`).

**Greenlight links** (\`/production-links\`, no key) are signed, bound to one pitch version and one recipient,
and live 7 days: \`stale\` once the pitch moved on or was answered (409), \`expired\` after (410), \`revoked\`
when the recipient can no longer greenlight or the endpoint was deleted (403).
`.trim();

/** The OpenAPI 3.1 document, generated from the zod schemas the routes validate with. */
export function publishOpenApi<E extends Env>(app: OpenAPIHono<E>, baseUrl: string) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key: `svc_live_` followed by 43 characters.',
  });
  const document = () =>
    app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: 'Video Production Service API', version: '1.0.0', description: DESCRIPTION },
      servers: [{ url: baseUrl }],
      security: [{ apiKey: [] }],
    });
  let cached: ReturnType<typeof document> | null = null;
  const get = () => (cached ??= document());
  app.get('/v1/openapi.json', (c) => c.json(get()));
}
