import { Hono } from 'hono';
import { ApiError } from '@vp/contracts';
import { finishedSharedExport, sharePosterUrl, shareUrl, shareVideoUrl, type OneCallRenderDeps } from '@vp/projects';
import { serveBlob } from '../blob-files/serve-blob.ts';
import type { GatewayDeps, GatewayEnv } from '../deps.ts';
import { missing } from './missing.ts';
import { sharePage } from './page.ts';

/** Exported files never change: any cache may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * A delivered video's share link (`shareUrl`, public, no key; the export's id is unguessable and
 * given only to the production's workspace): the page with its player, and the video and poster
 * served with byte ranges. A share link exists only once the production is delivered: before
 * that, or for one cancelled or failed (and so refunded), it answers 404 like an unknown address.
 * The editable project is the app's, behind sign-in (`/projects/…` redirects there).
 */
export function shareRoutes(deps: GatewayDeps & { renders: OneCallRenderDeps }) {
  const app = new Hono<GatewayEnv>();
  const { db, blobs } = deps.renders;
  const appUrl = deps.config.appUrl;
  const shared = (exportId: string) => finishedSharedExport(db, exportId);

  app.get('/share/:exportId', async (c) => {
    const made = await shared(c.req.param('exportId'));
    if (!made) return missing(c, 'There is no video at this address.');
    c.header('Cache-Control', 'public, max-age=300');
    return c.html(sharePage({
      title: made.project.title, shareUrl: shareUrl(appUrl, made.id), videoUrl: shareVideoUrl(appUrl, made.id), posterUrl: sharePosterUrl(appUrl, made.id),
      width: made.width ?? 0, height: made.height ?? 0, durationMs: made.durationMs ?? 0, bytes: made.bytes ?? 0,
    }));
  });

  for (const [file, column] of [['video.mp4', 'videoKey'], ['poster.jpg', 'posterKey']] as const) {
    app.get(`/share/:exportId/${file}`, async (c) => {
      const made = await shared(c.req.param('exportId'));
      if (!made) throw new ApiError(404, 'There is no video at this address.', 'not_found');
      const key = made[column];
      if (!key) throw new ApiError(404, 'The file is missing.', 'not_found');
      return serveBlob(c, blobs, key, { cacheControl: IMMUTABLE, notFound: 'The file is missing.' });
    });
  }

  return app;
}
