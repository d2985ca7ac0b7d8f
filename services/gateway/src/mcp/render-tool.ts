import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CreateRenderForm, DomainError, MAX_RENDER_IMAGE_BYTES, MAX_RENDER_IMAGES, Render, type Caller } from '@vp/contracts';
import type { Config } from '@vp/config';
import { fetchPublic, formatBytes } from '@vp/net';
import { presentRender, readRender, requestRender, type OneCallRenderDeps } from '@vp/projects';
import { normalizeColor } from '@vp/render/checks';
import { checkImage, type ImageType } from '../renders/images.ts';
import { answer, toolResult } from './tool-result.ts';

/** The form's own fields (the same rules as POST /v1/renders), with image addresses in place of uploads. */
const RenderInput = CreateRenderForm.omit({ images: true, wait: true }).extend({
  imageUrls: z.array(z.url({ protocol: /^https?$/ })).min(1, 'send 1 to 10 images').max(MAX_RENDER_IMAGES, 'send 1 to 10 images')
    .describe('Addresses of PNG, JPEG or WebP images, at most 10 MB each, on public hosts.'),
});

/** create_render: images into a video, as /v1/renders makes one; waits up to the same budget for it. */
export function registerRenderTool(server: McpServer, deps: OneCallRenderDeps & { config: Config }, caller: Caller) {
  server.registerTool('create_render', {
    title: 'Render images into a video',
    description: 'Makes a short video from 1 to 10 images (same rules as POST /v1/renders). Waits up to 90 s; if the render is not done by then, its status is `queued` or `rendering`.',
    inputSchema: RenderInput, outputSchema: z.object({ render: Render }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  }, (args) => answer(async () => {
    const deadline = Date.now() + deps.config.render.waitMs;
    if (args.accent && !normalizeColor(args.accent)) throw DomainError.invalid('accent', 'Is not a CSS colour (such as #ff5a36, rgb(255 90 54) or tomato).');
    const images = await Promise.all(args.imageUrls.map((url, i) => fetchImage(url, `imageUrls.${i}`, deps.config.allowPrivateUrls)));
    const { id } = await requestRender(deps, caller.accountId, { ...args, images });
    await deps.workflows.waitForRender(id, deadline - Date.now());
    const row = await readRender(deps.db, caller.accountId, id);
    return toolResult({ render: presentRender({ baseUrl: deps.config.baseUrl, urlSecret: deps.config.secrets.urls }, row) });
  }));
}

async function fetchImage(url: string, path: string, allowPrivate: boolean): Promise<ImageType & { bytes: Buffer }> {
  const response = await fetchPublic(url, { timeoutMs: 20_000, maxBytes: MAX_RENDER_IMAGE_BYTES, allowPrivate }).catch((error: unknown) => {
    const why = error instanceof Error && error.name === 'ResponseTooLargeError' ? `is larger than ${formatBytes(MAX_RENDER_IMAGE_BYTES)}` : `could not be fetched (${error instanceof Error ? error.message : 'error'})`;
    throw DomainError.invalid(path, `The image at ${url} ${why}.`);
  });
  if (response.status !== 200) throw DomainError.invalid(path, `The image at ${url} answered ${response.status}.`);
  const checked = checkImage(response.body);
  if (!checked.ok) throw DomainError.invalid(path, `The image at ${url} ${checked.problem}.`);
  return { ...checked.type, bytes: response.body };
}
