import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { describe, expect } from 'vitest';
import { workflowIds } from '@vp/contracts';
import { createRateLimiter } from '@vp/db';
import { EXPORT_NOT_STARTED, MAX_EXPORTS_UNDER_WAY, MAX_PROJECT_VERSIONS } from '@vp/projects';
import { test, waitFor } from '@vp/testing';
import { makeImage, startMediaServer } from '@vp/gateway/testing/media';
import { newWindowEachTime, startTestApp, type TestApp } from '@vp/app/testing';
import { withWorkers } from '../workers.ts';
import { appWith, deliveredVideo, exportsDone, fieldsOf, member, RENDER } from './projects.ts';

const it = test
  .extend('app', { scope: 'file' }, async ({ database }, { onCleanup }) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vp-project-edits-'));
    // Private addresses allowed: the media server below is on this machine.
    const env = { DATA_DIR: dataDir, RENDER_HEARTBEAT_TIMEOUT_MS: '20000', ALLOW_PRIVATE_URLS: 'true' };
    const app = await startTestApp(database, { beside: withWorkers({ render: true }), env, limiterNow: newWindowEachTime() });
    onCleanup(async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    });
    return app;
  })
  /** Pictures a brief or an edit points at, each request counted. */
  .extend('media', { scope: 'file' }, async ({}, { onCleanup }) => {
    const media = await startMediaServer({
      '/dashboard.png': { type: 'image/png', body: await makeImage('png', '1280x720') },
      '/release.png': { type: 'image/png', body: await makeImage('png', '1024x768') },
    });
    onCleanup(() => media.close());
    return media;
  });

type Stored = { durationMs: number; scenes: { id: string; title: string | null; durationMs: number }[]; media?: { id: string; url: string }[] };
const versionOf = async (app: TestApp, projectId: string, version: number) =>
  (await app.deps.db.projectVersion.findUniqueOrThrow({ where: { projectId_version: { projectId, version } } })).composition as Stored;

/** An owner's delivered video, and a way to post its edit form. */
async function editing(app: TestApp, email: string, intent: string, brief?: Record<string, unknown>) {
  const owner = await member(app, email);
  const project = await deliveredVideo(app, owner, intent, { brief });
  const save = (fields: Record<string, string>) => owner.post(`${project.path}/versions`, fields);
  const editPage = async () => {
    const page = await owner.get(`${project.path}/edit`);
    expect(page.status).toBe(200);
    return page.text();
  };
  const versions = () => app.deps.db.projectVersion.count({ where: { projectId: project.projectId } });
  return { owner, project, save, editPage, versions };
}

describe('an edit of a delivered production\'s project, in the app', { timeout: 3 * RENDER.timeoutMs }, () => {
  it('refuses what cannot be saved, one save from a version at a time, and saves nothing half', async ({ app }) => {
    const { owner, project, save, editPage, versions } = await editing(app, 'refused@example.test', 'Announce release 2.6');
    const first = await versionOf(app, project.projectId, 1);
    const openedAtVersion1 = fieldsOf(await editPage());

    // Every scene removed: the page again, each box still ticked.
    const emptied = await save({ ...openedAtVersion1, ...Object.fromEntries(first.scenes.map((_, i) => [`scenes.${i}.remove`, 'on'])) });
    expect(emptied.status).toBe(400);
    const emptiedPage = await emptied.text();
    expect(emptiedPage).toContain('The scenes: Keep at least one scene.');
    expect(Object.keys(fieldsOf(emptiedPage)).filter((name) => name.endsWith('.remove'))).toHaveLength(first.scenes.length);

    // Longer than the credits paid for: the page again, with what was typed and why.
    const longer = String(first.scenes[0]!.durationMs + 1000);
    const refused = await save({ baseVersion: '1', 'scenes.0.durationMs': longer, 'scenes.0.title': 'Typed <here>' });
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain('Nothing was saved');
    expect(page).toContain(`the video may last at most ${(first.durationMs / 1000).toFixed(1)} s, the length its credits paid for`);
    expect(page).toContain(`value="${longer}"`);
    expect(page).toContain('value="Typed &lt;here&gt;"');
    // Each refusal beside its field.
    const bad = await save({ baseVersion: '1', 'brand.backgroundColor': 'red', 'scenes.0.durationMs': '1.5', 'scenes.0.title': 'a\0b' });
    expect(bad.status).toBe(400);
    expect((await bad.text()).match(/class="field-problem"/g)).toHaveLength(3);
    for (const baseVersion of [undefined, '0', '9', 'one']) {
      const fields: Record<string, string> = baseVersion === undefined ? { 'scenes.0.title': 'No version' } : { baseVersion, 'scenes.0.title': 'No such version' };
      const answer = await save(fields);
      expect([answer.status, await answer.text()]).toEqual([400, expect.stringContaining('The version: The version the changes were made to: 1 to 1 here.')]);
    }
    expect(await versions()).toBe(1);

    // Two saves from version 1 at once: one is version 2, the other is told the project moved on.
    const answers = await Promise.all(['Mine', 'Theirs'].map((title) => save({ baseVersion: '1', 'scenes.0.title': title })));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
    expect(await versions()).toBe(2);
    const winner = (await versionOf(app, project.projectId, 2)).scenes[0]!.title;

    // A page opened at version 1 sends all its fields: only what it changed comes back, over version 2.
    const late = await save({ ...openedAtVersion1, 'scenes.1.title': 'Too late' });
    expect(late.status).toBe(409);
    const latePage = await late.text();
    expect(latePage).toContain('Another version was saved since this page was opened');
    const shown = fieldsOf(latePage);
    expect(shown).toMatchObject({ baseVersion: '2', 'scenes.0.title': winner, 'scenes.1.title': 'Too late' });
    // Sent again from there: version 3 has both changes; version 2's is not undone.
    expect((await save(shown)).status).toBe(303);
    expect((await versionOf(app, project.projectId, 3)).scenes.map((s) => s.title).slice(0, 2)).toEqual([winner, 'Too late']);

    // The form sent as the page has it, untouched: no new version; once the export of version 3 is done, it is exported again.
    await exportsDone(app.deps.db, project.projectId);
    const untouched = fieldsOf(await editPage());
    expect(untouched).toMatchObject({ baseVersion: '3', 'scenes.0.title': winner });
    expect((await save(untouched)).status).toBe(303);
    expect(await versions()).toBe(3);
    expect(await app.deps.db.export.count({ where: { projectId: project.projectId, version: 3 } })).toBe(2);
    await exportsDone(app.deps.db, project.projectId);

    // A project keeps 50 versions: the 51st is refused, nothing saved.
    const newest = await app.deps.db.projectVersion.findUniqueOrThrow({ where: { projectId_version: { projectId: project.projectId, version: 3 } } });
    await app.deps.db.projectVersion.createMany({
      data: Array.from({ length: MAX_PROJECT_VERSIONS - 3 }, (_, i) => ({ projectId: project.projectId, version: 4 + i, composition: newest.composition as object })),
    });
    const full = await save({ baseVersion: String(MAX_PROJECT_VERSIONS), 'scenes.0.title': 'One more' });
    expect([full.status, await full.text()]).toEqual([409, expect.stringContaining(`This project has ${MAX_PROJECT_VERSIONS} versions`)]);
    expect(await versions()).toBe(MAX_PROJECT_VERSIONS);
    expect(await (await owner.get(project.path)).text()).toContain(`This project has ${MAX_PROJECT_VERSIONS} versions`);

    // Once its production is no longer delivered (say, refunded), the project is not shown, not even to its owner.
    await app.deps.db.production.update({ where: { id: project.productionId }, data: { stage: 'failed' } });
    expect((await owner.get(project.path)).status).toBe(404);
    await app.deps.db.production.update({ where: { id: project.productionId }, data: { stage: 'delivered' } });
  });

  it('saves a form sent twice at once (a double click) once, and answers both as saved', async ({ app }) => {
    const { project, save } = await editing(app, 'twice@example.test', 'Announce release 2.7');
    const twice = await Promise.all([0, 1].map(() => save({ baseVersion: '1', 'scenes.0.title': 'Clicked twice' })));
    expect(twice.map((r) => [r.status, r.headers.get('location')])).toEqual(Array(2).fill([303, `${project.path}?done=saved`]));
    expect(await app.deps.db.projectVersion.count({ where: { projectId: project.projectId } })).toBe(2);
    expect(await app.deps.db.export.count({ where: { projectId: project.projectId, version: 2 } })).toBe(1);
    expect((await versionOf(app, project.projectId, 2)).scenes[0]!.title).toBe('Clicked twice');
    // Another change from version 1 is still not saved over version 2.
    expect((await save({ baseVersion: '1', 'scenes.0.title': 'Something else' })).status).toBe(409);
    await exportsDone(app.deps.db, project.projectId);
  });

  it(`has at most ${MAX_EXPORTS_UNDER_WAY} exports under way: another save or re-export is refused until one is done, nothing saved`, async ({ app }) => {
    const { owner, project, save, versions } = await editing(app, 'busy@example.test', 'Announce release 2.8');
    const { db } = app.deps;
    expect((await save({ baseVersion: '1', 'scenes.0.title': 'Version 2' })).status).toBe(303);
    await exportsDone(db, project.projectId);

    // The render farm busy with two of its exports.
    const underWay = await Promise.all(Array.from({ length: MAX_EXPORTS_UNDER_WAY }, () =>
      db.export.create({ data: { id: crypto.randomUUID(), projectId: project.projectId, version: 2, status: 'rendering' } })));
    const refused = await save({ baseVersion: '2', 'scenes.0.title': 'Version 3' });
    expect(refused.status).toBe(409);
    const page = await refused.text();
    expect(page).toContain(`This project has ${MAX_EXPORTS_UNDER_WAY} exports under way`);
    expect(fieldsOf(page)).toMatchObject({ baseVersion: '2', 'scenes.0.title': 'Version 3' });
    expect(await versions()).toBe(2);
    const queued = await owner.post(`${project.path}/versions/1/exports`);
    expect([queued.status, await queued.text()]).toEqual([409, expect.stringContaining('Nothing was queued')]);
    expect(await db.export.count({ where: { projectId: project.projectId, version: 1 } })).toBe(1);

    // One of them ended: the save goes through, and is exported.
    await db.export.update({ where: { id: underWay[0]!.id }, data: { status: 'failed', error: 'Made up by the test.' } });
    expect((await save({ baseVersion: '2', 'scenes.0.title': 'Version 3' })).status).toBe(303);
    expect(await versions()).toBe(3);
    await db.export.update({ where: { id: underWay[1]!.id }, data: { status: 'failed', error: 'Made up by the test.' } });
    await waitFor(async () => (await db.export.findFirstOrThrow({ where: { projectId: project.projectId, version: 3 } })).status === 'done', { what: 'the export of version 3', ...RENDER });
  });

  it('keeps a re-export the render farm could not be reached for queued, says so, and starts that one when asked again', async ({ app }) => {
    const { owner, project } = await editing(app, 'unreached@example.test', 'Announce release 2.9');
    const { db } = app.deps;
    const reexport = `${project.path}/versions/1/exports`;
    // The same owner on the app over a Temporal namespace that does not exist: the start is refused.
    const unreached = new Client({ connection: app.deps.temporal().connection, namespace: 'no-such-namespace' });
    const refused = await member(appWith(app, { temporal: () => unreached }), owner.email);
    const exportsBefore = await db.export.count({ where: { projectId: project.projectId } });
    const answer = await refused.post(reexport);
    // The page it leads to says the export is queued, not that it is under way.
    expect([answer.status, answer.headers.get('location')]).toEqual([303, `${project.path}?done=not_started`]);
    const stuck = await db.export.findFirstOrThrow({ where: { projectId: project.projectId, status: { not: 'done' } } });
    expect(stuck).toMatchObject({ status: 'queued', error: EXPORT_NOT_STARTED });
    const page = await (await owner.get(project.path)).text();
    expect(page).toContain('Not started: the render farm could not be reached');
    expect(page).not.toContain('http-equiv="refresh"'); // nothing to follow until asked again

    // Asked again with the render farm there: that export is started, not another beside it.
    const again = await owner.post(reexport);
    expect([again.status, again.headers.get('location')]).toEqual([303, `${project.path}?done=exporting`]);
    // Started: the note is gone at once, and the page follows the export again.
    expect(await db.export.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({ error: null });
    expect(await (await owner.get(project.path)).text()).toContain('http-equiv="refresh"');
    await waitFor(async () => (await db.export.findUniqueOrThrow({ where: { id: stuck.id } })).status === 'done', { what: 'the re-export', ...RENDER });
    expect(await db.export.count({ where: { projectId: project.projectId } })).toBe(exportsBefore + 1);
  });

  it('takes another address for a medium, fetched when that version is exported; one that cannot be used fails that export, saying why', async ({ app, media }) => {
    const dashboard = { id: 'dashboard', kind: 'image', name: 'Dashboard', url: `${media.url}/dashboard.png` };
    const { owner, project, save, editPage } = await editing(app, 'media@example.test', 'Show off the new dashboard in release 2.4', { media: [dashboard] });
    const { db } = app.deps;
    const opened = fieldsOf(await editPage());
    expect(opened['media.0.url']).toBe(dashboard.url);

    const refused = await save({ ...opened, 'media.0.url': 'javascript:alert(1)' });
    expect([refused.status, await refused.text()]).toEqual([400, expect.stringContaining('Must be an http or https address.')]);
    expect(await db.projectVersion.count({ where: { projectId: project.projectId } })).toBe(1);

    // Another picture, its address typed with spaces around it: saved without them, fetched by the export of version 2.
    expect((await save({ ...opened, 'media.0.url': ` ${media.url}/release.png ` })).status).toBe(303);
    expect((await versionOf(app, project.projectId, 2)).media).toEqual([{ ...dashboard, url: `${media.url}/release.png` }]);
    await exportsDone(db, project.projectId);
    expect(media.hits('/release.png')).toBe(1);

    // An address with nothing there: version 3 is saved, and its export fails, saying why.
    expect((await save({ ...fieldsOf(await editPage()), 'media.0.url': `${media.url}/missing.png` })).status).toBe(303);
    const third = await db.export.findFirstOrThrow({ where: { projectId: project.projectId, version: 3 } });
    // Its workflow's end, which words the failure last (the render's own note is written first).
    await app.deps.temporal().workflow.getHandle(workflowIds.export(third.id)).result();
    expect(await db.export.findUniqueOrThrow({ where: { id: third.id } })).toMatchObject({
      status: 'failed',
      error: `A media file could not be used: The image 'Dashboard' (${media.url}/missing.png) could not be downloaded: the server answered 404`,
    });
    expect(await (await owner.get(project.path)).text()).toContain('could not be downloaded: the server answered 404');
    // The delivered video is left as it was.
    expect(await db.export.findFirstOrThrow({ where: { projectId: project.projectId, version: 1 } })).toMatchObject({ status: 'done' });
  });

  it('counts the edits and re-exports of an account: 30 a minute, each one a render', async ({ app }) => {
    const perMinute = 30;
    // The app with its rate limiter's clock stopped: every request in one of its one-minute windows.
    const oneMinute = appWith(app, { limiter: createRateLimiter(app.deps.db, () => Date.UTC(2031, 0, 1, 12, 0, 30)) });
    const busy = await member(oneMinute, 'limited@example.test');
    const project = `/projects/${crypto.randomUUID()}`;
    const posts = await Promise.all(Array.from({ length: perMinute + 1 }, (_, i) =>
      busy.post(`${project}/versions${i % 2 ? '' : '/1/exports'}`)));
    expect(posts.filter((r) => r.status === 404)).toHaveLength(perMinute);
    const limited = posts.find((r) => r.status === 429)!;
    expect(limited.headers.get('retry-after')).toBe('30');
    const page = await limited.text();
    expect(page).toContain('Slow down');
    expect(page).toContain('Too many edits and exports; try again in 30 s.');
    expect((await busy.get(project)).status).toBe(404); // reading is not counted
    // Counted per account: another one's edit in the same minute is not refused.
    const other = await member(oneMinute, 'unlimited@example.test');
    expect((await other.post(`${project}/versions`)).status).toBe(404);
  });
});
