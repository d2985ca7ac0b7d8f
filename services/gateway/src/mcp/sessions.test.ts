import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { test } from '@vp/testing';
import { connectedAccount } from '../oauth/testing.ts';
import { createTestGateway, json } from '../testing/gateway.ts';

const LIMITS = { idleMs: 1500, perAccount: 2 };
const it = test.extend('gateway', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database, { mcpSessionLimits: LIMITS });
  onCleanup(gateway.close);
  return gateway;
});

type Gateway = Awaited<ReturnType<typeof createTestGateway>>;
const VERSION = '2025-11-25';

/** One JSON-RPC message to /mcp with `token`, in the session `session` when given. */
const send = (gateway: Gateway, token: string, message: object | null, session?: string, method = 'POST') => gateway.app.request('/mcp', {
  method,
  headers: {
    authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION,
    ...(message ? { 'content-type': 'application/json' } : {}), ...(session ? { 'mcp-session-id': session } : {}),
  },
  ...(message ? { body: JSON.stringify(message) } : {}),
});
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

/** An initialize as an MCP client sends it: the answer names the session. */
async function initialize(gateway: Gateway, token: string): Promise<string> {
  const res = await send(gateway, token, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } } });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('"subscribe":true');
  const session = res.headers.get('mcp-session-id')!;
  expect(session).toMatch(/^[0-9a-f-]{36}$/);
  expect((await send(gateway, token, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
  return session;
}

describe('MCP sessions (Streamable HTTP session management)', () => {
  it('belong to the account that initialized them; an unknown or ended session is 404, so the client initializes again', async ({ gateway, database }) => {
    const mine = (await connectedAccount(gateway, database.db)).tokens.access_token;
    const theirs = (await connectedAccount(gateway, database.db)).tokens.access_token;
    const session = await initialize(gateway, mine);
    expect((await send(gateway, mine, listTools, session)).status).toBe(200);

    const hijacked = await send(gateway, theirs, listTools, session);
    expect([hijacked.status, (await json(hijacked)).code]).toEqual([403, 'forbidden']);
    const unknown = await send(gateway, mine, listTools, '00000000-0000-4000-8000-000000000000');
    expect([unknown.status, (await json(unknown)).code]).toEqual([404, 'not_found']);

    // A client that never initializes is answered as before; GET and DELETE need a session.
    expect((await send(gateway, mine, listTools)).status).toBe(200);
    expect((await send(gateway, mine, null, undefined, 'GET')).status).toBe(405);

    expect((await send(gateway, mine, null, session, 'DELETE')).status).toBe(200);
    expect((await send(gateway, mine, listTools, session)).status).toBe(404);
  });

  it('are bounded: a few per account (the least recently used goes), closed when idle, all closed at shutdown', async ({ gateway, database }) => {
    const { tokens } = await connectedAccount(gateway, database.db);
    const token = tokens.access_token;
    const [first, second] = [await initialize(gateway, token), await initialize(gateway, token)];
    expect((await send(gateway, token, listTools, first)).status).toBe(200);
    // A third session: the second, used least recently, is closed.
    const third = await initialize(gateway, token);
    expect((await send(gateway, token, listTools, second)).status).toBe(404);
    expect((await send(gateway, token, listTools, first)).status).toBe(200);

    // Idle past the limit: closed by the sweep.
    await sleep(LIMITS.idleMs + 2000);
    expect((await send(gateway, token, listTools, third)).status).toBe(404);

    const last = await initialize(gateway, token);
    await gateway.mcpSessions.closeAll();
    expect(gateway.mcpSessions.size).toBe(0);
    expect((await send(gateway, token, listTools, last)).status).toBe(404);
  });
});
