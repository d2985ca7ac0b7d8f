import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { createWorkspace } from '@vp/accounts';
import { BROWSER_TEST_MS, browserSuite, expectAccessible, newContext, signInByEmail, signInLinkIn, startGatewayProcess } from './testing/index.ts';

const { shared, it } = browserSuite();

/** Markup and quotes that would run or break out of an attribute if any page left them unescaped. */
const EVIL = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'"`;
const ranScript = (page: Page) => page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? null);

describe('keys, members and the workspace, in a real browser', { timeout: BROWSER_TEST_MS }, () => {
  it('a key made on /keys is shown once, listed, works on the gateway\'s /v1, and stops at once when revoked', async ({ app, database }) => {
    const gateway = await startGatewayProcess(database, { APP_URL: app.url });
    const context = await newContext(shared.browser);
    try {
      const page = await context.newPage();
      await signInByEmail(page, app.url, shared.mail, 'keys@example.test');
      await page.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Name', { exact: true }).fill(`CI ${EVIL}`);
      await page.getByRole('checkbox', { name: /renders/ }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const apiKey = await page.getByLabel('API key').inputValue();
      expect(apiKey).toMatch(/^svc_live_/);
      await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
      await expectAccessible(page, 'the keys page with a new key');
      const row = page.getByRole('row', { name: /CI/ });
      await expect(row.textContent()).resolves.toContain(`${apiKey.slice(0, 12)}…`);
      await expect(row.textContent()).resolves.toContain('productions, renders');
      await expect(row.textContent()).resolves.toContain('In the app');
      await expect(row.textContent()).resolves.toContain(EVIL);
      expect(await ranScript(page)).toBeNull();

      const v1 = (init: RequestInit = {}) => fetch(`${gateway.url}/v1/productions`, { ...init, headers: { authorization: `Bearer ${apiKey}`, ...init.headers } });
      expect((await v1()).status).toBe(200);
      // The browser's own session is no key there: its cookie goes to the gateway's host too.
      expect((await page.request.get(`${gateway.url}/v1/productions`)).status()).toBe(401);
      const notKey = await page.request.delete(`${gateway.url}/v1/keys/current`);
      expect([notKey.status(), (await notKey.json()).code]).toEqual([400, 'not_api_key']);

      await page.getByRole('button', { name: /^Revoke the key CI/ }).click();
      await page.getByText('The key is revoked').waitFor();
      expect((await v1()).status).toBe(401);
      await expect(page.getByRole('row', { name: /CI/ }).textContent()).resolves.toMatch(/Revoked \d{4}-/);
    } finally {
      await context.close();
      await gateway.close();
    }
  });

  it('an invited viewer joins from the e-shared.mail, sees the workspace without controls, and a forged POST is refused', async ({ app, database }) => {
    const owner = await newContext(shared.browser);
    const guest = await newContext(shared.browser, 375);
    try {
      const page = await owner.newPage();
      await signInByEmail(page, app.url, shared.mail, 'owner@example.test');
      const ownerId = (await database.db.account.findUniqueOrThrow({ where: { email: 'owner@example.test' } })).id;
      await createWorkspace(database.db, { ownerId, name: `Team ${EVIL}` });
      await page.reload();
      await page.getByLabel('Workspace').selectOption({ label: `Team ${EVIL}` });
      await page.getByRole('button', { name: 'Switch' }).click();
      await page.getByRole('navigation').getByRole('link', { name: 'Workspace' }).click();
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`Team ${EVIL}`);
      for (const label of ['Brand name', 'Font family', 'Tone of voice']) await page.getByLabel(label).fill(`${label} ${EVIL}`);
      await page.getByLabel('Primary colour').fill(`#ff5a36"><b>`);
      await page.getByRole('button', { name: 'Save brand' }).click();
      await page.getByText('The brand is saved').waitFor();
      await expect(page.getByLabel('Tone of voice').inputValue()).resolves.toBe(`Tone of voice ${EVIL}`);
      await page.getByLabel('E-mail address').fill('viewer@example.test');
      await page.getByLabel('Role', { exact: true }).selectOption('viewer');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText('The invitation is on its way').waitFor();
      await expect(page.getByText('viewer@example.test as viewer').isVisible()).resolves.toBe(true);
      await expectAccessible(page, 'the workspace page, as its owner');
      expect(await ranScript(page)).toBeNull();

      const invitation = await shared.mail.next('viewer@example.test', 0);
      expect(invitation.text).toContain('invited you to the workspace');
      const viewer = await guest.newPage();
      await viewer.goto(signInLinkIn(invitation));
      await expectAccessible(viewer, 'the invitation\'s sign-in page');
      await viewer.getByRole('button', { name: 'Join and sign in as viewer@example.test' }).click();
      await viewer.waitForURL(`${app.url}/workspace`);
      await expect(viewer.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`Team ${EVIL}`);
      await expect(viewer.getByText('You are a viewer of this workspace.').isVisible()).resolves.toBe(true);
      await expect(viewer.getByText(`Tone of voice ${EVIL}`).isVisible()).resolves.toBe(true);
      for (const control of ['Send invitation', 'Save brand', 'Change role', 'Remove']) {
        await expect(viewer.getByRole('button', { name: control }).count(), control).resolves.toBe(0);
      }
      await expectAccessible(viewer, 'the workspace page, as a viewer, at 375 px');
      expect(await ranScript(viewer)).toBeNull();

      // A viewer who forges the owners' form (with its own session's valid token) is refused.
      await viewer.evaluate((target) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.action = `/workspace/members/${target}/role`;
        for (const [name, value] of [['_csrf', (document.querySelector('input[name=_csrf]') as HTMLInputElement).value], ['role', 'viewer']]) {
          const input = document.createElement('input');
          input.name = name!;
          input.value = value!;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      }, ownerId);
      await viewer.getByRole('heading', { name: 'Not allowed' }).waitFor();
      expect(await database.db.membership.count({ where: { accountId: ownerId, role: 'owner' } })).toBe(2);
    } finally {
      await Promise.all([owner.close(), guest.close()]);
    }
  });

  it('a form whose CSRF token was taken out is refused, and nothing changes', async ({ app, database }) => {
    const context = await newContext(shared.browser);
    try {
      const page = await context.newPage();
      await signInByEmail(page, app.url, shared.mail, 'csrf@example.test');
      await page.goto(`${app.url}/account`);
      await page.getByLabel('Name', { exact: true }).fill(`Ada ${EVIL}`);
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByText('Your name is saved').waitFor();
      await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(`Ada ${EVIL}`);
      expect(await ranScript(page)).toBeNull();
      await page.evaluate(() => document.querySelector('form[action="/account/name"] input[name=_csrf]')!.remove());
      await page.getByLabel('Name', { exact: true }).fill('Forged');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
      await expectAccessible(page, 'the refusal page');
      expect((await database.db.account.findUniqueOrThrow({ where: { email: 'csrf@example.test' } })).name).toBe(`Ada ${EVIL}`);
    } finally {
      await context.close();
    }
  });

  it('signing out ends the session (its cookie no longer works); signing out everywhere ends the others', async ({ app }) => {
    const [one, two, three] = await Promise.all([newContext(shared.browser), newContext(shared.browser), newContext(shared.browser)]);
    try {
      const first = await one.newPage();
      await signInByEmail(first, app.url, shared.mail, 'out@example.test');
      const cookies = await one.cookies();
      await first.getByRole('button', { name: 'Sign out' }).click();
      await first.waitForURL(`${app.url}/sign-in`);
      // The cookie kept from before signing out opens nothing.
      await two.addCookies(cookies);
      const replay = await two.newPage();
      await replay.goto(`${app.url}/account`);
      expect(new URL(replay.url()).pathname).toBe('/sign-in');

      await signInByEmail(replay, app.url, shared.mail, 'out@example.test');
      const other = await three.newPage();
      await signInByEmail(other, app.url, shared.mail, 'out@example.test');
      await replay.goto(`${app.url}/account`);
      await expect(replay.getByRole('button', { name: /^Sign out Chrome on Linux/ }).count()).resolves.toBe(2);
      await replay.getByRole('button', { name: 'Sign out everywhere' }).click();
      await replay.waitForURL(`${app.url}/sign-in`);
      await other.goto(`${app.url}/keys`);
      expect(new URL(other.url()).pathname).toBe('/sign-in');
    } finally {
      await Promise.all([one.close(), two.close(), three.close()]);
    }
  });
});
