import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { BROWSER_TEST_MS, expectAccessible, launchBrowser, newContext, newWindowEachTime, signInByEmail, startMailCatcher, startTestApp, type MailCatcher } from '@vp/app/testing';
import { freePort } from '@vp/devstack';
import { createWorkspace, setMember } from '@vp/accounts';
import { seedAccount, test } from '@vp/testing';
import { makeImage, probe, startMediaServer } from '@vp/gateway/testing/media';
import { serveApp } from '@vp/gateway/server';
import { createTestStack } from '../stack.ts';
import { form, pkce } from '@vp/gateway/testing/oauth';
import { connectedProvider, MemoryOAuthProvider, startCallbackServer } from './oauth-client.ts';

const shared = {} as { browser: Browser; mail: MailCatcher; callback: Awaited<ReturnType<typeof startCallbackServer>> };
beforeAll(async () => {
  [shared.browser, shared.mail, shared.callback] = await Promise.all([launchBrowser(), startMailCatcher(), startCallbackServer()]);
});
afterAll(async () => {
  await Promise.all([shared.browser?.close(), shared.mail?.close(), shared.callback?.close()]);
});

/** The whole service on real ports: the gateway (with /mcp) and its workers, a render worker, and the app for the consent. */
const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-mcp-'));
  const gatewayPort = await freePort();
  const baseUrl = `http://localhost:${gatewayPort}`;
  const app = await startTestApp(database, { mail: shared.mail, limiterNow: newWindowEachTime(), env: { BASE_URL: baseUrl } });
  const stack = await createTestStack(database, { render: true, env: { BASE_URL: baseUrl, APP_URL: app.url, DATA_DIR: dataDir, RENDER_HEARTBEAT_TIMEOUT_MS: '20000', ALLOW_PRIVATE_URLS: 'true' } });
  const server: Server = await new Promise((resolve) => {
    const s = serveApp(stack.app, { hostname: '127.0.0.1', port: gatewayPort, bodyIdleTimeoutMs: 30_000 }, () => resolve(s));
  });
  onCleanup(async () => {
    // As the gateway's shutdown does: the sessions' notification streams end, or close() would wait for them.
    await stack.mcpSessions.closeAll();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await Promise.all([stack.close(), app.close()]);
    await rm(dataDir, { recursive: true, force: true });
  });
  return { ...stack, baseUrl, appUrl: app.url };
});

type Stack = { baseUrl: string; appUrl: string };

/** An MCP client over the SDK's Streamable HTTP transport, authorised through `provider`. */
const connect = async (stack: Stack, provider: MemoryOAuthProvider) => {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), { authProvider: provider });
  await client.connect(transport);
  return { client, transport };
};

/**
 * What an assistant does the first time: tries /mcp, is sent through discovery and registration
 * to the authorization page, which the person answers in the browser; the code comes back to
 * the client's loopback listener, and the SDK trades it for tokens.
 */
async function authorize(stack: Stack, provider: MemoryOAuthProvider, page: import('playwright-core').Page, email: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), { authProvider: provider });
  await expect(new Client({ name: 'test-assistant', version: '1.0.0' }).connect(transport)).rejects.toThrow(UnauthorizedError);
  const authorizationUrl = provider.authorizationUrl!;
  expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${stack.appUrl}/oauth/authorize`);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizationUrl.searchParams.get('resource')).toBe(`${stack.baseUrl}/mcp`);
  const seen = shared.callback.received.length;
  await page.goto(authorizationUrl.href);
  // Signed out: the app asks for a sign-in first, then comes back to the consent.
  expect(new URL(page.url()).pathname).toBe('/sign-in');
  await signInByEmail(page, stack.appUrl, shared.mail, email);
  await page.getByRole('heading', { name: `Connect ${provider.clientName}?` }).waitFor();
  await expect(page.getByRole('main').textContent()).resolves.toContain(email);
  await expectAccessible(page, 'the consent page');
  // The answer needs the session's CSRF token: a post without it grants nothing.
  const forged = await page.request.post(`${stack.appUrl}/oauth/authorize`, { form: Object.fromEntries([...authorizationUrl.searchParams, ['decision', 'allow']]), headers: { origin: stack.appUrl } });
  expect(forged.status()).toBe(403);
  await page.getByRole('button', { name: 'Allow' }).click();
  const query = await shared.callback.next(seen);
  expect(query.get('iss')).toBe(stack.baseUrl);
  // The callback has heard the code; the browser's own navigation there ends before the page is used again.
  await page.waitForURL(/\/callback\?code=/);
  await transport.finishAuth(query.get('code')!);
}

describe('an assistant connects to /mcp and makes a video (MCP with OAuth 2.1)', { timeout: BROWSER_TEST_MS + 300_000 }, () => {
  it('discovery, registration, consent in the browser, tokens; tools through to delivery; refresh; a reused refresh token revokes the family', async ({ stack, database }) => {
    const { account } = await seedAccount(database.db, { credits: 100, email: 'assistant@example.test' });
    const provider = new MemoryOAuthProvider(shared.callback.url);
    const context = await newContext(shared.browser);
    try {
      const page = await context.newPage();
      await authorize(stack, provider, page, 'assistant@example.test');
      expect(provider.saved?.access_token).toMatch(/^vp_mcp_at_/);
      const { client } = await connect(stack, provider);

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'cancel', 'comment', 'create_production', 'create_render', 'decline', 'get_production', 'get_usage', 'greenlight', 'list_productions', 'wait_for_production',
      ]);
      for (const tool of tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.annotations, tool.name).toBeDefined();
        expect(tool.outputSchema, tool.name).toBeDefined();
      }
      expect(tools.find((t) => t.name === 'get_production')!.annotations!.readOnlyHint).toBe(true);
      expect(tools.find((t) => t.name === 'cancel')!.annotations!.destructiveHint).toBe(true);

      const created = await client.callTool({ name: 'create_production', arguments: { brief: { intent: 'Announce faster exports in release 2.4', format: { durationMs: 5000 } } } });
      expect(created.isError).toBeFalsy();
      const production = (created.structuredContent as { production: { id: string; source: { kind: string } } }).production;
      expect(production.source.kind).toBe('mcp');
      const timeline = await database.db.productionEvent.findFirstOrThrow({ where: { productionId: production.id, kind: 'created' } });
      expect(timeline.actor).toBe(`user:${account.id}`);

      // Waits with progress until the pitch is ready.
      const progress: string[] = [];
      const waitFor = (until: string[]) => client.callTool(
        { name: 'wait_for_production', arguments: { id: production.id, until, timeoutSeconds: 240 } }, undefined,
        { onprogress: (p) => void progress.push(p.message ?? ''), timeout: 250_000 },
      );
      const ready = await waitFor(['pitch_ready']);
      const readyBody = ready.structuredContent as { reached: boolean; production: { stage: string; pitch: { version: number } }; pitchMarkdown: string };
      expect([readyBody.reached, readyBody.production.stage]).toEqual([true, 'pitch_ready']);
      expect(progress.at(-1)).toBe('pitch_ready');
      expect(readyBody.pitchMarkdown).toContain('#');

      const detail = await client.callTool({ name: 'get_production', arguments: { id: production.id } });
      expect((detail.structuredContent as { pitchMarkdown: string }).pitchMarkdown).toBe(readyBody.pitchMarkdown);
      const resource = await client.readResource({ uri: `production://${production.id}` });
      expect(resource.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: readyBody.pitchMarkdown });

      const greenlit = await client.callTool({ name: 'greenlight', arguments: { id: production.id, pitchVersion: readyBody.production.pitch.version } });
      expect(greenlit.isError).toBeFalsy();
      const delivered = await waitFor(['delivered']);
      const deliveredBody = delivered.structuredContent as { reached: boolean; production: { stage: string; delivery: { shareUrl: string } | null } };
      expect([deliveredBody.reached, deliveredBody.production.stage]).toEqual([true, 'delivered']);
      expect(deliveredBody.production.delivery?.shareUrl).toMatch(/^http/);
      // The render phases came as progress too.
      expect(progress.some((message) => /^(greenlit|making|exporting): /.test(message))).toBe(true);

      // A refusal is a tool error with the API's code and words.
      const late = await client.callTool({ name: 'comment', arguments: { id: production.id, comment: 'Shorter, please' } });
      expect(late.isError).toBe(true);
      expect(JSON.parse((late.content as { text: string }[])[0]!.text)).toMatchObject({ code: 'stage', error: 'The production is already delivered.' });

      // The account page lists the client.
      await page.goto(`${stack.appUrl}/account`);
      await expect(page.getByRole('region', { name: 'Connected MCP clients' }).textContent()).resolves.toContain('Test assistant');

      // The access token is withdrawn: the SDK refreshes on the 401 by itself, and the refresh token rotates.
      const first = provider.saved!;
      expect((await fetch(`${stack.baseUrl}/oauth/revoke`, form({ token: first.access_token, client_id: provider.client!.client_id }))).status).toBe(200);
      const usage = await client.callTool({ name: 'get_usage', arguments: {} });
      expect(usage.isError).toBeFalsy();
      const second = provider.saved!;
      expect(second.refresh_token).not.toBe(first.refresh_token);

      // The old refresh token used again: the whole family goes.
      const reused = await fetch(`${stack.baseUrl}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: provider.client!.client_id }));
      expect([reused.status, ((await reused.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const afterReuse = await fetch(`${stack.baseUrl}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${second.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(afterReuse.status).toBe(401);
      await page.reload();
      await expect(page.getByRole('region', { name: 'Connected MCP clients' }).textContent()).resolves.toContain('No MCP client is connected');
    } finally {
      await context.close();
    }
  });

  it('refuses a plain or missing PKCE challenge, a wrong redirect URI or audience, a key at /mcp and a token at /v1; Deny and Disconnect', async ({ stack, database }) => {
    const { apiKey } = await seedAccount(database.db, { email: 'careful@example.test' });
    const provider = new MemoryOAuthProvider(shared.callback.url, 'Careful assistant');
    const context = await newContext(shared.browser);
    try {
      const page = await context.newPage();
      await authorize(stack, provider, page, 'careful@example.test');
      const clientId = provider.client!.client_id;
      const authorizeUrl = (params: Record<string, string | undefined>) => {
        const url = new URL(`${stack.appUrl}/oauth/authorize`);
        const all = { response_type: 'code', client_id: clientId, redirect_uri: shared.callback.url, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: `${stack.baseUrl}/mcp`, state: 'xyz', ...params };
        for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
        return url.href;
      };
      for (const [what, params, error] of [
        ['no PKCE', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
        ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
        ['another audience', { resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
      ] as const) {
        const seen = shared.callback.received.length;
        await page.goto(authorizeUrl(params));
        const query = await shared.callback.next(seen);
        expect([query.get('error'), query.get('state')], what).toEqual([error, 'xyz']);
      }
      await page.goto(authorizeUrl({ redirect_uri: 'http://127.0.0.1:1/elsewhere' }));
      await page.getByRole('heading', { name: 'This connection request cannot be answered' }).waitFor();

      // Deny: the client hears access_denied, and nothing is granted.
      const seen = shared.callback.received.length;
      await page.goto(authorizeUrl({}));
      await page.getByRole('button', { name: 'Deny' }).click();
      expect((await shared.callback.next(seen)).get('error')).toBe('access_denied');
      // The browser lands on the client's callback before it is sent anywhere else.
      await page.waitForURL(/\/callback\?error=access_denied/);

      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
      const atMcp = await fetch(`${stack.baseUrl}/mcp`, { method: 'POST', headers: { ...bearer(apiKey), 'content-type': 'application/json' }, body: '{}' });
      expect(atMcp.status).toBe(401);
      expect(atMcp.headers.get('www-authenticate')).toContain('resource_metadata=');
      expect((await fetch(`${stack.baseUrl}/v1/productions`, { headers: bearer(provider.saved!.access_token) })).status).toBe(401);

      // Disconnect on /account: the client's tokens stop at once.
      await page.goto(`${stack.appUrl}/account`);
      await page.getByRole('button', { name: /^Disconnect Careful assistant/ }).click();
      await page.getByText('The MCP client is disconnected').waitFor();
      const { client } = await connect(stack, provider).catch(() => ({ client: null }));
      expect(client).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('create_render makes a video from image addresses; bad input and a viewer\'s write are tool errors with the API\'s codes', async ({ stack, database }) => {
    const { account } = await seedAccount(database.db, { credits: 100 });
    const media = await startMediaServer({ '/one.png': { type: 'image/png', body: await makeImage('png', '1280x720') }, '/text.png': { type: 'image/png', body: Buffer.from('not a picture') } });
    try {
      const provider = await connectedProvider(stack.baseUrl, database.db, account.id, shared.callback.url, 'Render assistant');
      const { client } = await connect(stack, provider);

      const made = await client.callTool({ name: 'create_render', arguments: { imageUrls: [`${media.url}/one.png`], resolution: '480p' } }, undefined, { timeout: 120_000 });
      expect(made.isError).toBeFalsy();
      const { render } = made.structuredContent as { render: { status: string; videoUrl: string } };
      expect(render.status).toBe('done');
      const video = await fetch(render.videoUrl);
      expect((await probe(new Uint8Array(await video.arrayBuffer()))).width).toBe(854);

      const bad = await client.callTool({ name: 'create_render', arguments: { imageUrls: [`${media.url}/text.png`] } });
      expect(bad.isError).toBe(true);
      expect(JSON.parse((bad.content as { text: string }[])[0]!.text)).toMatchObject({ status: 400, issues: [{ path: 'imageUrls.0' }] });
      const invalid = await client.callTool({ name: 'create_render', arguments: { imageUrls: [] } });
      expect(invalid.isError).toBe(true);

      // A viewer of a team workspace may read it, not write there.
      const { account: owner } = await seedAccount(database.db);
      const team = await createWorkspace(database.db, { ownerId: owner.id, name: 'Team' });
      await setMember(database.db, { workspaceId: team.id, accountId: account.id, role: 'viewer' });
      const listed = await client.callTool({ name: 'list_productions', arguments: { workspaceId: team.id } });
      expect(listed.isError).toBeFalsy();
      const refused = await client.callTool({ name: 'create_production', arguments: { workspaceId: team.id, brief: { intent: 'Not mine to make' } } });
      expect(refused.isError).toBe(true);
      expect(JSON.parse((refused.content as { text: string }[])[0]!.text)).toMatchObject({ code: 'forbidden', status: 403 });
    } finally {
      await media.close();
    }
  });
});
