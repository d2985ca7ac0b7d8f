import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { createAccount, createWorkspace, setMember } from '@vp/accounts';
import { CreateProductionBody } from '@vp/contracts';
import { freePort } from '@vp/devstack';
import { grant } from '@vp/ledger';
import { createProduction } from '@vp/productions';
import { waitFor } from '@vp/testing';
import { domainDeps } from '@vp/domain';
import { BROWSER_TEST_MS, browserSuite, expectAccessible, newContext, signInByEmail, startGatewayProcess } from '@vp/app/testing';
import { withWorkers } from '../workers.ts';

// The video is served by the gateway (the app's /share addresses lead there): its port is chosen
// first, so that the app knows where it is; both keep their files in one directory.
const gatewayPort = await freePort();
const dataDir = await mkdtemp(join(tmpdir(), 'vp-app-productions-'));
const { shared, it } = browserSuite({
  app: { beside: withWorkers({ render: true }), env: { BASE_URL: `http://localhost:${gatewayPort}`, DATA_DIR: dataDir, RENDER_HEARTBEAT_TIMEOUT_MS: '20000' } },
});

/** Markup and quotes that would run or break out of an attribute if any page left them unescaped. */
const EVIL = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'"`;
const ranScript = (page: Page) => page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? null);
/** Readable at a phone's width: nothing runs off the side of the page. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const RENDER_MS = 180_000;

async function accountId(db: Parameters<typeof grant>[0], email: string) {
  return (await db.account.findUniqueOrThrow({ where: { email } })).id;
}

describe('productions in a real browser', { timeout: BROWSER_TEST_MS + RENDER_MS }, () => {
  it('made from the form: the pitch shows, a greenlight makes the video, its progress moves without reloading, and it plays', async ({ app, database }) => {
    const gateway = await startGatewayProcess(database, { APP_URL: app.url, DATA_DIR: dataDir }, gatewayPort);
    const context = await newContext(shared.browser);
    try {
      const page = await context.newPage();
      await signInByEmail(page, app.url, shared.mail, 'maker@example.test');
      await grant(database.db, await accountId(database.db, 'maker@example.test'), 100, 'test');
      await page.getByRole('link', { name: 'New production' }).click();
      await expectAccessible(page, 'the create form');
      await page.getByLabel('Intent').fill(`Faster exports in 2.4 ${EVIL}`);
      await page.getByLabel('Context').fill(`Exports now run on the render farm. ${EVIL}`);
      await page.getByLabel('Length in seconds').fill('5');
      await page.getByLabel('Music').uncheck();
      await page.getByLabel('Brand name').fill(`Acme ${EVIL}`);
      await page.getByRole('button', { name: 'Write the pitch' }).click();

      await page.getByText('Created: the pitch is being written').waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/productions\/[0-9a-f-]{36}$/);
      const productionId = page.url().split('/').at(-1)!.split('?')[0]!;
      const row = await database.db.production.findUniqueOrThrow({ where: { id: productionId } });
      expect(row.sourceKind).toBe('app');
      // The page follows the writer: once the pitch is ready it offers to show it (unless it was ready first).
      const moved = page.getByRole('link', { name: /Things moved on/ });
      const greenlight = page.getByRole('button', { name: /^Greenlight/ });
      await moved.or(greenlight).first().waitFor({ timeout: 60_000 });
      if (await moved.isVisible()) await moved.click();
      await greenlight.waitFor();
      await expect(page.getByText('Pitch, version 1').isVisible()).resolves.toBe(true);
      await expect(page.locator('.shot').count()).resolves.toBeGreaterThan(0);
      await expect(page.locator('.shot h3').first().textContent()).resolves.toMatch(/0:00–0:0\d/);
      await expect(page.getByText(`Acme ${EVIL}`).count()).resolves.toBe(1);
      await expectAccessible(page, 'the production page with its pitch');
      expect(await ranScript(page)).toBeNull();

      await page.getByRole('button', { name: /^Greenlight/ }).click();
      await page.getByText('Greenlit: the video is being made').waitFor();
      // A mark on this page's window: it is still there after the progress moved, so nothing reloaded.
      await page.evaluate(() => { (window as unknown as { __samePage: boolean }).__samePage = true; });
      const shown = () => page.locator('#progress [data-field="stage"]').textContent();
      const first = await shown();
      await waitFor(async () => (await shown()) !== first, { what: 'the stage shown to change', timeoutMs: RENDER_MS, intervalMs: 250 });
      await page.getByRole('link', { name: /Things moved on/ }).waitFor({ timeout: RENDER_MS });
      expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
      await expect(shown()).resolves.toBe('delivered');

      await page.getByRole('link', { name: /Things moved on/ }).click();
      await page.getByRole('heading', { name: 'The video' }).waitFor();
      await expect(page.getByRole('link', { name: 'Open the project' }).isVisible()).resolves.toBe(true);
      await expect(page.getByRole('link', { name: 'MP4' }).getAttribute('download')).resolves.toBe('');
      await expectAccessible(page, 'the production page of a delivered video');
      const played = await page.evaluate(async () => {
        const video = document.getElementById('player') as HTMLVideoElement;
        video.muted = true;
        await video.play();
        const start = video.currentTime;
        await new Promise((resolve) => video.addEventListener('timeupdate', function moved() {
          if (video.currentTime > start) { video.removeEventListener('timeupdate', moved); resolve(null); }
        }));
        return { readyState: video.readyState, advanced: video.currentTime > start };
      });
      expect(played.readyState).toBeGreaterThanOrEqual(2);
      expect(played.advanced).toBe(true);
      await expect(page.getByText(/credits charged/i).isVisible()).resolves.toBe(true);
    } finally {
      await context.close();
      await gateway.close();
    }
  });

  it('every brief and brand field shows as text on the form and the page; a refused form says why beside each field', async ({ app, database }) => {
    const context = await newContext(shared.browser, 375);
    try {
      const page = await context.newPage();
      await signInByEmail(page, app.url, shared.mail, 'evil@example.test');
      await grant(database.db, await accountId(database.db, 'evil@example.test'), 100, 'test');
      await page.goto(`${app.url}/productions/new`);
      await page.getByLabel('Length in seconds').fill('2');
      await page.getByLabel('Media links').fill('not an address');
      await page.getByRole('button', { name: 'Write the pitch' }).click();
      await page.getByText('Nothing was created').waitFor();
      await expect(page.locator('#f-intent-problem').isVisible()).resolves.toBe(true);
      await expect(page.locator('#f-durationSeconds-problem').textContent()).resolves.toBe('At least 5 seconds.');
      await expect(page.locator('#f-media-problem').textContent()).resolves.toMatch(/^Line 1 \(url\): /);
      await expectAccessible(page, 'the create form with its refusals, at 375 px');
      expect(await fitsWidth(page)).toBe(true);

      await page.getByLabel('Intent').fill(`Intent ${EVIL}`);
      await page.getByLabel('Context').fill(`Context ${EVIL}`);
      await page.getByLabel('Length in seconds').fill('10');
      await page.getByLabel('Media links').fill(`https://media.example.test/a.png?q="><b>x Screenshot ${EVIL}`);
      await page.getByLabel('A file to show: its path').fill(`src/${EVIL}.ts`);
      await page.getByLabel('Its source').fill(`const s = "${EVIL}";`);
      await page.getByLabel('Or paste a diff').fill(`--- a/lib/x.ts\n+++ b/lib/x.ts\n@@ -1 +1 @@\n-old\n+new ${EVIL}\n`);
      for (const label of ['Brand name', 'Font', 'Tone']) await page.getByLabel(label, { exact: true }).fill(`${label} ${EVIL}`);
      for (const label of ['Accent colour', 'Background colour']) await page.getByLabel(label).fill(`#fff"><b>`);
      await page.getByRole('button', { name: 'Write the pitch' }).click();
      await page.getByText('Created: the pitch is being written').waitFor();
      expect(await ranScript(page)).toBeNull();
      await page.getByText('The brief').click();
      for (const text of [`Intent ${EVIL}`, `Context ${EVIL}`, `Screenshot ${EVIL}`, `src/${EVIL}.ts`, 'lib/x.ts', `Tone ${EVIL}`, `Font ${EVIL}`, `Brand name ${EVIL}`, '#fff"><b>']) {
        await expect(page.getByText(text, { exact: false }).first().isVisible(), text).resolves.toBe(true);
      }
      const id = page.url().split('/').at(-1)!.split('?')[0]!;
      const { brief } = (await database.db.production.findUniqueOrThrow({ where: { id } })) as unknown as { brief: { code: { path: string; status: string | null; additions: number }[] } };
      expect(brief.code.map((file) => [file.path, file.status, file.additions])).toEqual([[`src/${EVIL}.ts`, null, 0], ['lib/x.ts', 'modified', 1]]);
      await expectAccessible(page, 'the production page at 375 px');
      expect(await fitsWidth(page)).toBe(true);

      await page.goto(`${app.url}/?stage=queued,writing_pitch,pitch_ready`);
      await expect(page.getByRole('link', { name: `Intent ${EVIL}` }).isVisible()).resolves.toBe(true);
      await page.goto(`${app.url}/?stage=delivered`);
      await expect(page.getByText('No productions in this stage.').isVisible()).resolves.toBe(true);
      await expectAccessible(page, 'the productions list, filtered');
      expect(await fitsWidth(page)).toBe(true);
      expect(await ranScript(page)).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('a viewer sees the pitch without a button, and a forged greenlight is refused; a form without its CSRF token too', async ({ app, database }) => {
    const [ownerContext, viewerContext] = await Promise.all([newContext(shared.browser), newContext(shared.browser)]);
    try {
      const owner = await ownerContext.newPage();
      const viewer = await viewerContext.newPage();
      await signInByEmail(owner, app.url, shared.mail, 'boss@example.test');
      const ownerId = await accountId(database.db, 'boss@example.test');
      await grant(database.db, ownerId, 100, 'test');
      const team = await createWorkspace(database.db, { ownerId, name: 'Team' });
      const { account: watcher } = await createAccount(database.db, { email: 'watcher@example.test', name: null });
      await setMember(database.db, { workspaceId: team.id, accountId: watcher.id, role: 'viewer' });
      const { production } = await createProduction(domainDeps(app.deps).productions, { accountId: ownerId, actor: `user:${ownerId}`, via: 'app' },
        CreateProductionBody.parse({ workspaceId: team.id, brief: { intent: 'Team news' } }));
      await waitFor(async () => (await database.db.production.findUniqueOrThrow({ where: { id: production.id } })).stage === 'pitch_ready', { what: 'the pitch', timeoutMs: 60_000 });

      // The page's address (as the e-mails carry it) while signed out: sign in, and back to it.
      await viewer.goto(`${app.url}/productions/${production.id}`);
      expect(new URL(viewer.url()).pathname).toBe('/sign-in');
      await signInByEmail(viewer, app.url, shared.mail, 'watcher@example.test');
      expect(new URL(viewer.url()).pathname).toBe(`/productions/${production.id}`);
      await viewer.getByText('Pitch, version 1').waitFor();
      await expect(viewer.getByRole('button', { name: /Greenlight|Decline|Cancel|Ask for a new pitch/ }).count()).resolves.toBe(0);
      await expect(viewer.getByText(/Boss|boss@example.test/).first().isVisible()).resolves.toBe(true);
      await expectAccessible(viewer, 'the production page, as a viewer');
      // The viewer forges the owners' form, with its own session's valid token.
      await viewer.evaluate((id) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.action = `/productions/${id}/greenlight`;
        const csrf = document.createElement('input');
        csrf.name = '_csrf';
        csrf.value = (document.querySelector('input[name=_csrf]') as HTMLInputElement).value;
        form.append(csrf);
        document.body.append(form);
        form.submit();
      }, production.id);
      await viewer.getByRole('heading', { name: 'Not allowed' }).waitFor();
      const status = await viewer.evaluate(async (id) => (await fetch(`/productions/${id}/greenlight`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `_csrf=${encodeURIComponent((document.querySelector('input[name=_csrf]') as HTMLInputElement)?.value ?? '')}`,
      })).status, production.id);
      expect(status).toBe(403);

      // The owner's own form, its CSRF token taken out: refused, nothing done.
      await owner.goto(`${app.url}/productions/${production.id}`);
      await owner.evaluate(() => document.querySelector('form[action$="/greenlight"] input[name=_csrf]')!.remove());
      await owner.getByRole('button', { name: /^Greenlight/ }).click();
      await owner.getByRole('heading', { name: 'Not allowed' }).waitFor();
      expect((await database.db.production.findUniqueOrThrow({ where: { id: production.id } })).stage).toBe('pitch_ready');

      // The owner comments: blank space is refused beside the field; words ask for the next pitch.
      await owner.goto(`${app.url}/productions/${production.id}`);
      await owner.getByLabel(/What should change/).fill('   ');
      await owner.getByRole('button', { name: 'Ask for a new pitch' }).click();
      await owner.locator('#comment-problem').waitFor();
      await owner.getByLabel(/What should change/).fill(`Shorter, please ${EVIL}`);
      await owner.getByRole('button', { name: 'Ask for a new pitch' }).click();
      await owner.getByText('Your comments are with the writer').waitFor();
      // Exactly the comment as written: once the next pitch is in, it is quoted there too ("In answer to …").
      await expect(owner.getByText(`Shorter, please ${EVIL}`, { exact: true }).first().isVisible()).resolves.toBe(true);
      expect(await ranScript(owner)).toBeNull();
      await owner.getByRole('button', { name: 'Cancel the production' }).click();
      await owner.getByText('Cancelled.').waitFor();
      await owner.getByRole('heading', { name: 'This production was cancelled' }).waitFor();
    } finally {
      await Promise.all([ownerContext.close(), viewerContext.close()]);
    }
  });
});
