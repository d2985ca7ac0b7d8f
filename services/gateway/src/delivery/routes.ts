import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { ApiError } from '@vp/contracts';
import type { Export } from '@vp/db';
import {
  deliveredProject, editUrl, finishedSharedExport, queueExport, sharePosterUrl, shareUrl, shareVideoUrl, startQueuedExport, type OneCallRenderDeps,
} from '@vp/projects';
import { productionPageUrl } from '@vp/productions';
import type { GatewayDeps, GatewayEnv } from '../deps.ts';
import { missing, wantsPage } from './missing.ts';
import { projectPage, sharePage } from './pages.ts';
import { exportsBusy, projectEditRoutes, type DeliveredProject } from './project-edit.ts';
import { serveBlob } from './serve-blob.ts';

/** Exported files never change: any cache may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The delivery, in the app (public, no key; the ids are unguessable and given only to the
 * production's owner): the share page with its player, the video and poster served with
 * byte ranges, and the editable project with its versions and re-exports.
 *
 * All of it exists only once the production is delivered. Before that, or for one cancelled or
 * failed (and so refunded), the project and its exports answer 404 like an unknown address: the
 * video is what the credits pay for. A one-call render's project and export have no production
 * and none of these pages; its video is served at its signed address (renders/routes.ts).
 */
export function deliveryRoutes(deps: GatewayDeps & { renders: OneCallRenderDeps }) {
  const app = new Hono<GatewayEnv>();
  const { db, blobs } = deps.renders;
  const appUrl = deps.config.appUrl;
  const shared = (exportId: string) => finishedSharedExport(db, exportId);
  const project = (projectId: string): Promise<DeliveredProject | null> => deliveredProject(db, projectId);

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

  const page = (found: DeliveredProject, problem?: string) => projectPage({
    project: found, versions: found.versions, appUrl, projectUrl: editUrl(appUrl, found.id),
    productionPageUrl: found.productionId ? productionPageUrl(appUrl, found.productionId) : null, problem,
  });

  app.get('/projects/:projectId', async (c) => {
    const found = await project(c.req.param('projectId'));
    if (!found) return missing(c, 'There is no project at this address.');
    c.header('Cache-Control', 'no-store');
    return c.html(page(found));
  });

  /** Starts the workflow of a queued export (see `startQueuedExport`). */
  const startQueued = (c: Context<GatewayEnv>, found: DeliveredProject, made: Export) =>
    startQueuedExport(deps.renders, made, found.workspaceId, (error) => c.var.log.error({ err: error }, 'export not started'));

  /** Re-export: one export of a version at a time; the render farm makes it. */
  app.post('/projects/:projectId/versions/:version/exports', async (c) => {
    const found = await project(c.req.param('projectId'));
    const version = found?.versions.find((v) => String(v.version) === c.req.param('version'));
    if (!found || !version) return missing(c, 'There is no such project version.');
    const made = await queueExport(db, { id: randomUUID(), projectId: found.id, version: version.version });
    if (made === 'busy') {
      const message = exportsBusy('Nothing was queued: export it again');
      if (!wantsPage(c)) throw new ApiError(409, message, 'limit');
      c.header('Cache-Control', 'no-store');
      return c.html(page(found, message), 409);
    }
    if (made) await startQueued(c, found, made);
    return c.redirect(editUrl(appUrl, found.id), 303);
  });

  app.route('/', projectEditRoutes({ db, appUrl, project, startQueued }));

  return app;
}
