import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Hono, type Context } from 'hono';
import { ApiError } from '@vp/contracts';
import type { Db, Export } from '@vp/db';
import { editUrl, MAX_EXPORTS_UNDER_WAY, MAX_PROJECT_VERSIONS, queueExport, saveVersion, type DeliveredProject } from '@vp/projects';
import { editComposition, rebaseEdit, type Music } from '@vp/render/edit';
import type { GatewayEnv } from '../deps.ts';
import { editPage, type EditState, type StoredComposition } from './edit-page.ts';
import { readForm } from '../http/form.ts';
import { missing, wantsPage } from './missing.ts';

export type { DeliveredProject };
type Version = DeliveredProject['versions'][number];

/** Why an edit or re-export was refused while the project's exports are under way (409 `limit`). */
export const exportsBusy = (notDone: string) =>
  `This project has ${MAX_EXPORTS_UNDER_WAY} exports under way, as many as it may have at once. ${notDone} once one of them is done.`;

const stored = (version: Version) => version.composition as StoredComposition;
/** A composition as the database gives it back: JSON keeps no -0, for one. */
const asStored = (composition: unknown): unknown => JSON.parse(JSON.stringify(composition));
/** Version 1 lasts as long as the credits paid for: no edit may run past it. */
const paidMs = (found: DeliveredProject) => stored(found.versions.at(-1)!).durationMs ?? 0;
/** The voice of version 1, which its format asked for; null when it had no voiceover. */
function voiceOf(found: DeliveredProject): { voice: string; wordsPerMinute: number } | null {
  const line = stored(found.versions.at(-1)!).audio?.voiceover?.[0];
  return line?.voice && line.wordsPerMinute ? { voice: line.voice, wordsPerMinute: line.wordsPerMinute } : null;
}
/** The music bed of version 1, which its format asked for; null when it had none. Saved valid, as every version. */
const musicOf = (found: DeliveredProject) => (stored(found.versions.at(-1)!).audio?.music ?? null) as Music | null;

/**
 * Editing a delivered project: the edit page of its newest version, and the form it posts,
 * which saves the next version and exports it. A form that changes nothing exports the newest
 * version again. The video may be shortened, not lengthened past version 1: the length its
 * credits paid for. Sound effects follow the transitions when version 1 had them, scenes may
 * be given new voiceover lines in its voice when it had one, and its music bed may be switched
 * off and on again (the format's switches). A refused
 * form comes back with what was typed, or the error shape for a program.
 */
export function projectEditRoutes(deps: {
  db: Db;
  appUrl: string;
  /** A delivered production's project, versions newest first; null otherwise. */
  project: (projectId: string) => Promise<DeliveredProject | null>;
  startQueued: (c: Context<GatewayEnv>, found: DeliveredProject, made: Export) => Promise<void>;
}) {
  const app = new Hono<GatewayEnv>();
  const projectUrl = (found: DeliveredProject) => editUrl(deps.appUrl, found.id);
  const page = (found: DeliveredProject, edit?: EditState) => {
    const newest = found.versions[0]!;
    return editPage({
      title: found.title, projectUrl: projectUrl(found), baseVersion: newest.version, composition: stored(newest),
      maxDurationMs: paidMs(found), edit, speaks: voiceOf(found) !== null, hasMusic: musicOf(found) !== null,
    });
  };

  app.get('/projects/:projectId/edit', async (c) => {
    const found = await deps.project(c.req.param('projectId'));
    if (!found) return missing(c, 'There is no project at this address.');
    c.header('Cache-Control', 'no-store');
    return c.html(page(found));
  });

  app.post('/projects/:projectId/versions', async (c) => {
    const found = await deps.project(c.req.param('projectId'));
    if (!found) return missing(c, 'There is no project at this address.');
    const { baseVersion, ...changes } = await readForm(c, { dot: true });
    const [newest, first] = [found.versions[0]!, found.versions.at(-1)!];
    const from = found.versions.find((version) => String(version.version) === baseVersion);
    if (!from) throw ApiError.invalid('baseVersion', `The version the changes were made to: ${first.version} to ${newest.version} here.`);

    const rules = {
      maxDurationMs: paidMs(found), soundEffects: (stored(first).audio?.sfx?.length ?? 0) > 0, voice: voiceOf(found), music: musicOf(found),
    };
    /** Made from an older version than the newest: what it changed is shown over the newest, not saved. */
    const stale = async () => {
      const now = (await deps.project(found.id)) ?? found;
      // The same form sent twice (a double click): the first one saved it.
      const same = editComposition(from.composition, changes, rules);
      if (!('issues' in same) && isDeepStrictEqual(asStored(same.composition), now.versions[0]!.composition)) return c.redirect(projectUrl(found), 303);
      const message = 'Another version was saved since this page was opened. Nothing was saved: your changes are shown below, over the newest version.';
      if (!wantsPage(c)) throw new ApiError(409, message, 'stale');
      const { values, lost } = rebaseEdit(from.composition, now.versions[0]!.composition, changes);
      const dropped = lost === 1 ? ' One of your changes was to a scene, voiceover line or medium it dropped.' : lost ? ` ${lost} of your changes were to scenes, voiceover lines or media it dropped.` : '';
      return c.html(page(now, { values, issues: [], problem: message + dropped }), 409);
    };
    if (from !== newest) return stale();

    const result = editComposition(newest.composition, changes, rules);
    if ('issues' in result) {
      const [issue] = result.issues;
      if (!wantsPage(c)) throw new ApiError(400, `The changes are not valid: ${issue!.path}: ${issue!.message}`, undefined, {}, result.issues);
      return c.html(page(found, { values: { ...changes, baseVersion }, issues: result.issues, problem: 'Nothing was saved: see what to change below.' }), 400);
    }
    /** Past one of the project's limits (409 `limit`): the form comes back as it was sent. */
    const refused = (message: string) => {
      if (!wantsPage(c)) throw new ApiError(409, message, 'limit');
      return c.html(page(found, { values: { ...changes, baseVersion }, issues: [], problem: message }), 409);
    };
    const busy = () => refused(exportsBusy('Nothing was saved: send it again'));
    if (isDeepStrictEqual(asStored(result.composition), newest.composition)) {
      const made = await queueExport(deps.db, { id: randomUUID(), projectId: found.id, version: newest.version });
      if (made === 'busy') return busy();
      if (made) await deps.startQueued(c, found, made);
      return c.redirect(projectUrl(found), 303);
    }
    if (found.versions.length >= MAX_PROJECT_VERSIONS) {
      return refused(`This project has ${MAX_PROJECT_VERSIONS} versions, as many as a project keeps. Nothing was saved; any version can still be exported again.`);
    }
    const made = await saveVersion(deps.db, { projectId: found.id, baseVersion: newest.version, composition: result.composition, exportId: randomUUID() });
    if (made === 'stale') return stale();
    if (made === 'busy') return busy();
    await deps.startQueued(c, found, made);
    return c.redirect(projectUrl(found), 303);
  });

  return app;
}
