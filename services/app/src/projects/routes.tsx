/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Export } from '@vp/db';
import { deliveredProject, queueExport, startQueuedExport, type DeliveredProject } from '@vp/projects';
import type { Domain } from '@vp/domain';
import type { AppDeps, AppEnv } from '../env.ts';
import { limitProjectPosts } from '../http/limits.ts';
import { chromeOf, doneNotice } from '../routes/chrome.ts';
import { memberProject } from './access.ts';
import { exportsBusy } from './composition.ts';
import { EditPage, type EditState } from './edit-page.tsx';
import { ProjectPage } from './project-page.tsx';
import { saveEdit } from './save-edit.ts';

const DONE = {
  saved: 'Saved: the new version is being exported. This page follows it.',
  exporting: 'Exporting: this page follows it.',
  saved_not_started: 'Saved; its export is queued, not started: the render farm could not be reached. Export this version again to retry.',
  not_started: 'Queued, not started: the render farm could not be reached. Export it again to retry.',
};

/**
 * `/projects/{id}` (a delivery's `editUrl`), its edit page and the forms they post, for the
 * members of the production's workspace: viewers read, editors and owners save versions and
 * export (every version's export made by the render farm, free: the credits paid for version 1).
 * A project exists here only once its production is delivered (`deliveredProject`).
 */
export function projectRoutes(deps: AppDeps, domain: Domain) {
  const app = new Hono<AppEnv>();
  app.use(limitProjectPosts(deps));
  const find = (c: Context<AppEnv>, write: boolean) => memberProject(deps.db, c.var.caller, c.req.param('id')!, { write });
  const back = (c: Context, done: keyof typeof DONE) => c.redirect(`/projects/${c.req.param('id')}?done=${done}`, 303);

  /** Starts the workflow of a queued export (see `startQueuedExport`). */
  const start = (c: Context<AppEnv>, found: DeliveredProject, made: Export) =>
    startQueuedExport(domain.renders, made, found.workspaceId, (error) => deps.log.error({ err: error, exportId: made.id, path: c.req.path }, 'export not started'));

  const projectPage = async (c: Context<AppEnv>, view: { project: DeliveredProject; canWrite: boolean; problem?: string }, status: 200 | 409 = 200) =>
    c.html(<ProjectPage chrome={await chromeOf(deps, c)} view={{ ...view, appUrl: deps.config.appUrl, notice: doneNotice(c, DONE) }} />, status);
  const editPage = async (c: Context<AppEnv>, project: DeliveredProject, edit?: EditState, status: 200 | 400 | 409 = 200) =>
    c.html(<EditPage chrome={await chromeOf(deps, c)} project={project} edit={edit} />, status);

  app.get('/:id', async (c) => {
    const { found, canWrite } = await find(c, false);
    return projectPage(c, { project: found, canWrite });
  });

  app.get('/:id/edit', async (c) => editPage(c, (await find(c, true)).found));

  app.post('/:id/versions', async (c) => {
    const { found } = await find(c, true);
    const outcome = await saveEdit(deps.db, found, await c.req.parseBody({ dot: true }), () => deliveredProject(deps.db, found.id));
    if (!outcome.done) return editPage(c, outcome.project, outcome, outcome.status);
    if (outcome.started && !(await start(c, found, outcome.started))) return back(c, 'saved_not_started');
    return back(c, 'saved');
  });

  /** Re-export: one export of a version at a time; the render farm makes it. */
  app.post('/:id/versions/:version/exports', async (c) => {
    const { found } = await find(c, true);
    const version = found.versions.find((v) => String(v.version) === c.req.param('version'));
    if (!version) return c.notFound();
    const made = await queueExport(deps.db, { id: randomUUID(), projectId: found.id, version: version.version });
    if (made === 'busy') return projectPage(c, { project: found, canWrite: true, problem: exportsBusy('Nothing was queued: export it again') }, 409);
    if (made && !(await start(c, found, made))) return back(c, 'not_started');
    return back(c, 'exporting');
  });

  return app;
}
