import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { framesAt, shareNear } from '@vp/render/testing';
import { waitFor } from '@vp/testing';
import { probe } from '@vp/gateway/testing/media';
import { BROWSER_TEST_MS, browserSuite, expectAccessible, newContext, signInByEmail, type TestApp } from '@vp/app/testing';
import { withWorkers } from '../workers.ts';
import { deliveredVideo, exportsDone, fieldsOf, join as joinAs, member, RENDER, teamOf, type Member } from './projects.ts';

const dataDir = await mkdtemp(join(tmpdir(), 'vp-app-projects-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const { shared, it } = browserSuite({ app: { beside: withWorkers({ render: true }), env: { DATA_DIR: dataDir, RENDER_HEARTBEAT_TIMEOUT_MS: '20000' } } });

type Composition = { durationMs: number; brand: { backgroundColor: string; textColor: string }; scenes: { id: string; title: string | null; durationMs: number }[] };

/** One team's delivered video: its owner, an editor, a viewer, and an account of another workspace. */
let made: Promise<{ owner: Member; editor: Member; viewer: Member; outsider: Member; project: Awaited<ReturnType<typeof deliveredVideo>> }> | null = null;
function team(app: TestApp) {
  made ??= (async () => {
    const [owner, editor, viewer, outsider] = await Promise.all(['owner', 'editor', 'viewer', 'outsider'].map((who) => member(app, `${who}@example.test`)));
    const workspaceId = await teamOf(app.deps.db, owner!);
    await joinAs(app.deps.db, workspaceId, editor!, 'editor');
    await joinAs(app.deps.db, workspaceId, viewer!, 'viewer');
    const project = await deliveredVideo(app, owner!, 'Announce release 2.5', { workspaceId });
    return { owner: owner!, editor: editor!, viewer: viewer!, outsider: outsider!, project };
  })();
  return made;
}

const versions = (app: TestApp, projectId: string) => app.deps.db.projectVersion.count({ where: { projectId } });
const exportCount = (app: TestApp, projectId: string) => app.deps.db.export.count({ where: { projectId } });

describe('a delivered video\'s project, behind sign-in', { timeout: BROWSER_TEST_MS + RENDER.timeoutMs }, () => {
  it('sends a signed-out browser to sign in, and back to the project after; the page is hardened and accessible', async ({ app }) => {
    const { project } = await team(app);
    const context = await newContext(shared.browser, 375);
    try {
      const page = await context.newPage();
      const res = await page.goto(`${app.url}${project.path}`);
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      expect(res?.status()).toBe(200);
      await signInByEmail(page, app.url, shared.mail, 'viewer@example.test');
      expect(new URL(page.url()).pathname).toBe(project.path);
      await page.getByRole('heading', { name: 'Version 1' }).waitFor();
      await expectAccessible(page, 'the project page, as a viewer, at 375 px');
    } finally {
      await context.close();
    }
    const { editor } = await team(app);
    const answer = await editor.get(project.path);
    const policy = answer.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/script-src 'nonce-[^']+'/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 404 to an account outside the workspace, as for an address with nothing at it, and saves nothing for it', async ({ app }) => {
    const { outsider, editor, project } = await team(app);
    for (const path of [project.path, `${project.path}/edit`]) expect((await outsider.get(path)).status, path).toBe(404);
    expect((await outsider.post(`${project.path}/versions`, { baseVersion: '1', 'scenes.0.title': 'Not mine' })).status).toBe(404);
    expect((await outsider.post(`${project.path}/versions/1/exports`)).status).toBe(404);
    expect((await editor.get(`/projects/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await editor.get('/projects/not-an-id')).status).toBe(404);
    expect([await versions(app, project.projectId), await exportCount(app, project.projectId)]).toEqual([1, 1]);
  });

  it('shows a viewer the project without a button; a forged save or export is refused with 403', async ({ app }) => {
    const { viewer, project } = await team(app);
    const page = await (await viewer.get(project.path)).text();
    expect(page).toContain('Version 1');
    expect(page).toContain('The composition (JSON)');
    expect(page).not.toContain('<form method="post" action="/projects/');
    expect(page).not.toContain(`${project.path}/edit`);
    expect((await viewer.get(`${project.path}/edit`)).status).toBe(403);
    // With the viewer's own session's valid token, from the app's origin.
    expect((await viewer.post(`${project.path}/versions`, { baseVersion: '1', 'scenes.0.title': 'Forged' })).status).toBe(403);
    expect((await viewer.post(`${project.path}/versions/1/exports`)).status).toBe(403);
    expect([await versions(app, project.projectId), await exportCount(app, project.projectId)]).toEqual([1, 1]);
  });

  it('refuses a form without the session\'s CSRF token, or sent from another site', async ({ app }) => {
    const { editor, project } = await team(app);
    const save = { baseVersion: '1', 'scenes.0.title': 'Forged' };
    for (const [what, sent] of [
      ['no token', editor.post(`${project.path}/versions`, save, { csrf: null })],
      ['another token', editor.post(`${project.path}/versions/1/exports`, {}, { csrf: 'x'.repeat(43) })],
      ['another origin', editor.post(`${project.path}/versions`, save, { headers: { origin: 'https://elsewhere.example' } })],
      ['another site', editor.post(`${project.path}/versions/1/exports`, {}, { headers: { origin: 'null', 'sec-fetch-site': 'cross-site' } })],
    ] as const) expect((await sent).status, what).toBe(403);
    expect([await versions(app, project.projectId), await exportCount(app, project.projectId)]).toEqual([1, 1]);
  });

  it('lets an editor save the next version and export it, and export a version again: the render farm makes each', async ({ app }) => {
    const { editor, project } = await team(app);
    const { db } = app.deps;
    const page = await (await editor.get(project.path)).text();
    expect(page).toContain(`href="${project.path}/edit"`);
    expect(page).toContain('Export version 1 again');
    const edit = await editor.get(`${project.path}/edit`);
    const opened = fieldsOf(await edit.text());
    expect(opened).toMatchObject({ baseVersion: '1', 'scenes.0.title': expect.any(String), _csrf: editor.csrf });
    const first = (await db.projectVersion.findUniqueOrThrow({ where: { projectId_version: { projectId: project.projectId, version: 1 } } })).composition as Composition;

    const saved = await editor.post(`${project.path}/versions`, { ...opened, 'scenes.0.title': 'Release 2.5 <is> out', 'brand.backgroundColor': '#F4F1E8' });
    expect([saved.status, saved.headers.get('location')]).toEqual([303, `${project.path}?done=saved`]);
    const second = (await db.projectVersion.findUniqueOrThrow({ where: { projectId_version: { projectId: project.projectId, version: 2 } } })).composition as Composition;
    // A light background: the text turns dark, so that it stays readable.
    expect(second).toMatchObject({ durationMs: first.durationMs, brand: { backgroundColor: '#f4f1e8', textColor: expect.not.stringMatching(first.brand.textColor) } });
    expect(second.scenes[0]!.title).toBe('Release 2.5 <is> out');
    // The project's page follows the export; the edit page never reloads under a person typing.
    const following = await (await editor.get(`${project.path}?done=saved`)).text();
    expect(following).toContain('http-equiv="refresh"');
    expect(following).toContain('Saved: the new version is being exported.');
    expect(following).toContain('Release 2.5 &lt;is&gt; out');
    expect(await (await editor.get(`${project.path}/edit`)).text()).not.toContain('http-equiv="refresh"');

    // One export of a version at a time, however many ask at once.
    const again = await Promise.all([0, 1, 2].map(() => editor.post(`${project.path}/versions/1/exports`)));
    expect(again.map((r) => [r.status, r.headers.get('location')])).toEqual(Array(3).fill([303, `${project.path}?done=exporting`]));
    expect(await db.export.count({ where: { projectId: project.projectId, version: 1 } })).toBe(2);
    await exportsDone(db, project.projectId);

    const madeV2 = await db.export.findFirstOrThrow({ where: { projectId: project.projectId, version: 2 } });
    const video = await app.deps.blobs!.read(madeV2.videoKey!);
    const bytes = new Uint8Array(await new Response(video).arrayBuffer());
    const probed = await probe(bytes);
    expect(probed).toMatchObject({ width: 1920, height: 1080 });
    expect(Math.abs(probed.durationMs - first.durationMs)).toBeLessThanOrEqual(34); // within a frame
    const dir = await mkdtemp(join(tmpdir(), 'vp-edit-'));
    try {
      await writeFile(join(dir, 'v2.mp4'), bytes);
      const [title] = await framesAt(join(dir, 'v2.mp4'), [second.scenes[0]!.durationMs / 2], { width: 1920, height: 1080 });
      expect(shareNear(title!, '#f4f1e8')).toBeGreaterThan(0.2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const after = await (await editor.get(project.path)).text();
    expect(after).toContain('Version 2');
    expect(after).toContain(`${app.url}/share/${madeV2.id}`);
    expect(after).not.toContain('http-equiv="refresh"');

    // A queued export whose workflow never started (the app stopped right after queueing it) is started when asked again.
    const stranded = await db.export.create({ data: { id: crypto.randomUUID(), projectId: project.projectId, version: 1 } });
    expect((await editor.post(`${project.path}/versions/1/exports`)).status).toBe(303);
    await waitFor(async () => (await db.export.findUniqueOrThrow({ where: { id: stranded.id } })).status === 'done', { what: 'the stranded re-export', ...RENDER });
    expect(await db.export.count({ where: { projectId: project.projectId, version: 1, status: { not: 'done' } } })).toBe(0);
  }, BROWSER_TEST_MS + 3 * RENDER.timeoutMs);
});
