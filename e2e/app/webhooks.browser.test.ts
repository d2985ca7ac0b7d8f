import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { setMember } from '@vp/accounts';
import { waitFor } from '@vp/testing';
import { BROWSER_TEST_MS, browserSuite, expectAccessible, newContext, signInByEmail } from '@vp/app/testing';
import { withWorkers } from '../workers.ts';

// Endpoints on this machine: allowed only by the development switch, which the test turns on.
const { shared, it } = browserSuite({ app: { beside: withWorkers(), env: { ALLOW_PRIVATE_URLS: 'true' } } });

const EVIL = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'"`;
const ranScript = (page: Page) => page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? null);

/** A receiver that answers every delivery 200, with markup in its answer (shown as text). */
const received: string[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => void (body += chunk.toString()));
  req.on('end', () => {
    received.push(body);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`thanks ${EVIL}`);
  });
});
let hookUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe('webhook endpoints in a real browser', { timeout: BROWSER_TEST_MS }, () => {
  it('are added with the secret shown once; a test event is delivered and listed with its answer; the secret rolls; switched off and on; deleted', async ({ app, database }) => {
    const context = await newContext(shared.browser);
    try {
      const page = await context.newPage();
      await signInByEmail(page, app.url, shared.mail, 'hooks@example.test');
      await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('Address (https)').fill('ftp://nowhere');
      await page.getByRole('button', { name: 'Add the endpoint' }).click();
      await page.locator('#webhook-url-problem').waitFor();
      await expectAccessible(page, 'the webhooks page with a refusal');

      await page.getByLabel('Address (https)').fill(hookUrl);
      await page.getByLabel('Description (optional)').fill(`Release bot ${EVIL}`);
      await page.getByRole('button', { name: 'Add the endpoint' }).click();
      const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await expect(page.getByText(`Release bot ${EVIL}`).isVisible()).resolves.toBe(true);
      expect(await ranScript(page)).toBeNull();
      await expectAccessible(page, 'an endpoint with its new secret');
      // Shown once: the endpoint's own address shows it no more.
      const endpointUrl = `${app.url}/webhooks/${(await database.db.webhookEndpoint.findFirstOrThrow()).id}`;
      await page.goto(endpointUrl);
      await expect(page.getByLabel('Secret', { exact: true }).count()).resolves.toBe(0);

      await page.getByRole('button', { name: 'Send a test event' }).click();
      await page.getByText('A test event (ping) is on its way').waitFor();
      await waitFor(() => received.length > 0, { what: 'the ping to arrive' });
      await waitFor(async () => {
        await page.reload();
        return (await page.getByRole('row', { name: /ping/ }).textContent())?.includes('succeeded');
      }, { what: 'the delivery to show as succeeded', timeoutMs: 30_000, intervalMs: 500 });
      const row = await page.getByRole('row', { name: /ping/ }).textContent();
      expect(row).toContain('200');
      expect(row).toContain(`thanks ${EVIL}`);
      expect(await ranScript(page)).toBeNull();
      await expectAccessible(page, 'an endpoint with a delivery');

      await page.getByRole('button', { name: 'Send again' }).click();
      await page.getByText('The event is sent again').waitFor();
      await expect(page.getByText('(sent again)').count()).resolves.toBe(1);

      await page.getByRole('button', { name: 'Roll the secret' }).click();
      const rolled = await page.getByLabel('Secret', { exact: true }).inputValue();
      expect(rolled).toMatch(/^whsec_/);
      expect(rolled).not.toBe(secret);

      await page.goto(endpointUrl);
      await page.getByRole('button', { name: 'Switch off' }).click();
      await page.getByText('The endpoint is switched off').waitFor();
      await page.getByRole('button', { name: 'Switch on' }).click();
      await page.getByText('The endpoint is switched on').waitFor();
      await page.getByRole('button', { name: 'Delete the endpoint' }).click();
      await page.getByText('The endpoint is deleted').waitFor();
      await expect(page.getByText('No endpoints yet.').isVisible()).resolves.toBe(true);
    } finally {
      await context.close();
    }
  });

  it('a viewer sees the endpoints and their deliveries, without a button, and a forged POST is refused', async ({ app, database }) => {
    const [ownerContext, viewerContext] = await Promise.all([newContext(shared.browser), newContext(shared.browser, 375)]);
    try {
      const owner = await ownerContext.newPage();
      await signInByEmail(owner, app.url, shared.mail, 'hook-owner@example.test');
      await owner.goto(`${app.url}/webhooks`);
      await owner.getByLabel('Address (https)').fill(hookUrl);
      await owner.getByRole('button', { name: 'Add the endpoint' }).click();
      await owner.getByLabel('Secret', { exact: true }).waitFor();
      const ownerId = (await database.db.account.findUniqueOrThrow({ where: { email: 'hook-owner@example.test' } })).id;
      const endpoint = await database.db.webhookEndpoint.findFirstOrThrow({ where: { workspace: { ownerId } } });

      const viewer = await viewerContext.newPage();
      await signInByEmail(viewer, app.url, shared.mail, 'hook-viewer@example.test');
      const viewerId = (await database.db.account.findUniqueOrThrow({ where: { email: 'hook-viewer@example.test' } })).id;
      await setMember(database.db, { workspaceId: endpoint.workspaceId, accountId: viewerId, role: 'viewer' });
      await viewer.goto(`${app.url}/webhooks/${endpoint.id}`);
      await viewer.getByRole('heading', { name: hookUrl }).waitFor();
      for (const control of ['Switch off', 'Switch on', 'Send a test event', 'Roll the secret', 'Delete the endpoint', 'Send again']) {
        await expect(viewer.getByRole('button', { name: control }).count(), control).resolves.toBe(0);
      }
      await expectAccessible(viewer, 'an endpoint, as a viewer, at 375 px');
      expect(await viewer.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      const status = await viewer.evaluate(async (id) => (await fetch(`/webhooks/${id}/delete`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `_csrf=${encodeURIComponent((document.querySelector('input[name=_csrf]') as HTMLInputElement).value)}`,
      })).status, endpoint.id);
      expect(status).toBe(403);
      expect((await database.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).deletedAt).toBeNull();
    } finally {
      await Promise.all([ownerContext.close(), viewerContext.close()]);
    }
  });
});
