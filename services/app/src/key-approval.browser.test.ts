import { describe, expect } from 'vitest';
import { BROWSER_TEST_MS, browserSuite, expectAccessible, newContext, signInByEmail, startGatewayProcess, startWorkerProcess } from './testing/index.ts';

const { shared, it } = browserSuite();

describe('the device flow, approved in a real browser (spec: Authentication 6)', { timeout: BROWSER_TEST_MS * 2 }, () => {
  it('a tool asks, a signed-out person opens the approval link, signs in, is brought back, approves; the tool\'s next poll gets a key that works on /v1', async ({ app, database }) => {
    const queues = { TEMPORAL_TASK_QUEUE_PREFIX: app.config.temporal.taskQueuePrefix };
    const [gateway, worker] = await Promise.all([startGatewayProcess(database, { APP_URL: app.url, ...queues }), startWorkerProcess(database, queues)]);
    const context = await newContext(shared.browser);
    try {
      const tool = (path: string, body: unknown) => fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const started = await (await tool('/v1/keys/request', { name: 'vp CLI on laptop' })).json() as { deviceCode: string; userCode: string; approvalUrl: string };
      expect(started.approvalUrl).toBe(`${app.url}/keys/approve?code=${started.userCode}`);
      expect(await (await tool('/v1/keys/poll', { deviceCode: started.deviceCode })).json()).toEqual({ status: 'pending' });

      const page = await context.newPage();
      await page.goto(started.approvalUrl);
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      await signInByEmail(page, app.url, shared.mail, 'device@example.test');
      // Back on the approval page, its code kept.
      expect(page.url()).toBe(started.approvalUrl);
      await page.getByRole('heading', { name: `Does your tool show ${started.userCode}?` }).waitFor();
      const details = await page.locator('dl').textContent();
      expect(details).toContain('vp CLI on laptop');
      expect(details).toContain('127.0.0.1');
      await expectAccessible(page, 'the approval page');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Approved: “vp CLI on laptop” receives its key on its next poll.').waitFor();

      const claimed = await (await tool('/v1/keys/poll', { deviceCode: started.deviceCode })).json() as { status: string; apiKey: string };
      expect(claimed).toEqual({ status: 'approved', apiKey: expect.stringMatching(/^svc_live_/) });
      expect((await fetch(`${gateway.url}/v1/productions`, { headers: { authorization: `Bearer ${claimed.apiKey}` } })).status).toBe(200);
      expect(await (await tool('/v1/keys/poll', { deviceCode: started.deviceCode })).json()).toEqual({ status: 'claimed' });

      // The code again: answered, in words.
      await page.goto(started.approvalUrl);
      await page.getByText('This request was already approved.').waitFor();
      // The keys page lists the key as made by the device flow, with all four scopes.
      await page.goto(`${app.url}/keys`);
      const row = page.getByRole('row', { name: /vp CLI on laptop/ });
      await expect(row.textContent()).resolves.toContain('Device flow');
      await expect(row.textContent()).resolves.toContain('productions, renders, capture, import');
      await expect(row.textContent()).resolves.toContain(`${claimed.apiKey.slice(0, 12)}…`);
    } finally {
      await context.close();
      await Promise.all([gateway.close(), worker.close()]);
    }
  });
});
