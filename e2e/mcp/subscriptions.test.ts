import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect } from 'vitest';
import { freePort } from '@vp/devstack';
import { serveApp } from '@vp/gateway/server';
import { REDIRECT } from '@vp/gateway/testing/oauth';
import { seedAccount, test, waitFor } from '@vp/testing';
import { createTestStack } from '../stack.ts';
import { connectedProvider, type MemoryOAuthProvider } from './oauth-client.ts';

/** The gateway on a real port with its workers (pitches are written); no render worker: a greenlit production waits in the queue. */
const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const stack = await createTestStack(database, { env: { BASE_URL: baseUrl, STORYBOARD_WAIT_MS: '0' } });
  const server: Server = await new Promise((resolve) => {
    const s = serveApp(stack.app, { hostname: '127.0.0.1', port, bodyIdleTimeoutMs: 30_000 }, () => resolve(s));
  });
  onCleanup(async () => {
    // As the gateway's shutdown does: the sessions' notification streams end, or close() would wait for them.
    await stack.mcpSessions.closeAll();
    await stack.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
  });
  return { ...stack, baseUrl };
});

/** An assistant's MCP client, in a session of its own (the SDK initializes one, then listens on GET). */
async function connect(baseUrl: string, provider: MemoryOAuthProvider, sessionId?: string) {
  const client = new Client({ name: 'subscribing-assistant', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { authProvider: provider, sessionId });
  await client.connect(transport);
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updated.push(notification.params.uri));
  return { client, transport, updated };
}

/** A production of the client's account, created by its tool and waited for until its pitch is ready. */
async function pitchReady(client: Client, intent: string) {
  const created = await client.callTool({ name: 'create_production', arguments: { brief: { intent, format: { durationMs: 5000 } } } });
  const { id } = (created.structuredContent as { production: { id: string } }).production;
  const ready = await client.callTool({ name: 'wait_for_production', arguments: { id, timeoutSeconds: 120 } }, undefined, { timeout: 130_000 });
  const { production } = ready.structuredContent as { production: { stage: string; pitch: { version: number } } };
  expect(production.stage).toBe('pitch_ready');
  return { id, uri: `production://${id}`, pitchVersion: production.pitch.version };
}

const refusal = (error: unknown) => (error instanceof StreamableHTTPError ? error.code : error);

describe('production resources: subscriptions in an MCP session', { timeout: 240_000 }, () => {
  it('a subscriber hears notifications/resources/updated when the production changes, and nothing after unsubscribing', async ({ stack, database }) => {
    const { account } = await seedAccount(database.db, { credits: 100 });
    const provider = await connectedProvider(stack.baseUrl, database.db, account.id, REDIRECT, 'Subscribing assistant');
    const { client, transport, updated } = await connect(stack.baseUrl, provider);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);

    const { id, uri, pitchVersion } = await pitchReady(client, 'Announce resource subscriptions');
    // Two witnesses, watched after it (a session reads what it watches in the order subscribed):
    // their changes, heard, prove that the session has read again since it was cancelled.
    const [early, last] = [await pitchReady(client, 'First witness'), await pitchReady(client, 'Second witness')];
    for (const watched of [uri, early.uri, last.uri]) await client.subscribeResource({ uri: watched });

    // Greenlit: the stage moves on, and the subscriber is told; it reads the resource again for the content.
    const greenlit = await client.callTool({ name: 'greenlight', arguments: { id, pitchVersion } });
    expect(greenlit.isError).toBeFalsy();
    await waitFor(() => updated.includes(uri), { what: 'the update for the greenlight', intervalMs: 100 });
    expect(updated.every((u) => u === uri)).toBe(true);
    const read = await client.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });

    // Unsubscribed: a cancellation (a change) is not sent.
    await client.unsubscribeResource({ uri });
    const before = updated.filter((u) => u === uri).length;
    const cancelled = await client.callTool({ name: 'cancel', arguments: { id } });
    expect((cancelled.structuredContent as { production: { stage: string } }).production.stage).toBe('cancelled');
    // The last-watched witness, cancelled and heard: the read that told it has ended. The other,
    // cancelled only then, is heard from a later read, which began after the cancellation above
    // and would have told it first.
    for (const witness of [last, early]) {
      await client.callTool({ name: 'cancel', arguments: { id: witness.id } });
      await waitFor(() => updated.includes(witness.uri), { what: `the update for the witness ${witness.uri}`, intervalMs: 100 });
    }
    expect(updated.filter((u) => u === uri)).toHaveLength(before);

    // A production the account cannot see is no resource of its.
    await expect(client.subscribeResource({ uri: 'production://00000000-0000-4000-8000-000000000000' })).rejects.toThrow(/No such resource/);
    await client.close();
  });

  it('a session is refused to another account\'s token; an unknown or ended session answers 404', async ({ stack, database }) => {
    const [mine, theirs] = [(await seedAccount(database.db)).account, (await seedAccount(database.db)).account];
    const myProvider = await connectedProvider(stack.baseUrl, database.db, mine.id, REDIRECT, 'Mine');
    const theirProvider = await connectedProvider(stack.baseUrl, database.db, theirs.id, REDIRECT, 'Theirs');
    const { client, transport } = await connect(stack.baseUrl, myProvider);
    const sessionId = transport.sessionId!;

    // The SDK resumes a session it is given without initializing again.
    const intruder = await connect(stack.baseUrl, theirProvider, sessionId);
    expect(await intruder.client.listTools().catch(refusal)).toBe(403);
    const lost = await connect(stack.baseUrl, myProvider, '00000000-0000-4000-8000-000000000000');
    expect(await lost.client.listTools().catch(refusal)).toBe(404);
    // The owner's own token still works in it.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);

    // DELETE ends it: resuming it is 404.
    await transport.terminateSession();
    const ended = await connect(stack.baseUrl, myProvider, sessionId);
    expect(await ended.client.listTools().catch(refusal)).toBe(404);
    await Promise.all([client, intruder.client, lost.client, ended.client].map((c) => c.close()));
  });
});
