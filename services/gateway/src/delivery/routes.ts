import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { Hono, type Context } from 'hono';
import { ApiError, type Stage } from '@vp/contracts';
import type { Export } from '@vp/db';
import { editUrl, projectWithHistory, queueExport, sharePosterUrl, shareUrl, shareVideoUrl } from '@vp/projects';
import { productionPageUrl } from '@vp/productions';
import { exportWorkflowStart } from '@vp/workflows/render-start';
import type { BlobStore } from '@vp/blobs';
import type { GatewayDeps, GatewayEnv } from '../env.ts';
import { missing, wantsPage } from './missing.ts';
import { projectPage, sharePage } from './pages.ts';
import { exportsBusy, projectEditRoutes, type DeliveredProject } from './project-edit.ts';
import { serveBlob } from './serve-blob.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The one stage whose project and exports are public (see `deliveryRoutes`). */
const DELIVERED: Stage = 'delivered';
/** Exported files never change: any cache may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** On a re-export whose workflow could not be started; it stays queued until asked again. */
const NOT_STARTED = 'Not started: the render farm could not be reached. Export this version again to retry.';

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
export function deliveryRoutes(deps: GatewayDeps & { blobs: BlobStore }) {
  const app = new Hono<GatewayEnv>();
  const { db, blobs } = deps;
  const appUrl = deps.config.appUrl;

  /** A finished export of a delivered production's project: what a share link shows. */
  async function shared(exportId: string) {
    if (!UUID.test(exportId)) return null;
    const made = await db.export.findUnique({ where: { id: exportId }, include: { project: { include: { production: { select: { stage: true } } } } } });
    return made?.status === 'done' && made.project.production?.stage === DELIVERED ? made : null;
  }

  /** A delivered production's project with its history. */
  async function project(projectId: string): Promise<DeliveredProject | null> {
    if (!UUID.test(projectId)) return null;
    const found = await projectWithHistory(db, projectId);
    return found?.production?.stage === DELIVERED ? found : null;
  }

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

  /**
   * Starts the workflow of a queued export. Unless it could not be started, the export is on its
   * way: no note says otherwise. If it could not, it may have started all the same (an answer
   * lost on the way): it stays queued, and asking again starts it under the same workflow id, or
   * finds it started.
   */
  async function startQueued(c: Context<GatewayEnv>, made: Export): Promise<void> {
    let note: string | null = null;
    try {
      await deps.temporal().workflow.start('exportWorkflow', exportWorkflowStart(made.id, {
        taskQueuePrefix: deps.config.temporal.taskQueuePrefix, heartbeatTimeoutMs: deps.config.render.heartbeatTimeoutMs,
      }));
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) {
        note = NOT_STARTED;
        c.var.log.error({ err: error }, 'export not started');
      }
    }
    if (note || made.error) await db.export.updateMany({ where: { id: made.id, status: 'queued' }, data: { error: note } });
  }

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
    if (made) await startQueued(c, made);
    return c.redirect(editUrl(appUrl, found.id), 303);
  });

  app.route('/', projectEditRoutes({ db, appUrl, project, startQueued }));

  return app;
}
