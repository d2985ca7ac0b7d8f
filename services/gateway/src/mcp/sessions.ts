import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

export type SessionLimits = {
  /** A session that has had no request and no open notification stream for this long is closed. */
  idleMs: number;
  /** Sessions one account may hold at once; a new one closes the account's least recently used. */
  perAccount: number;
};

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, perAccount: 10 };

export type McpSession = {
  id: string;
  /** The account whose token initialized it: a token of another account may not use it. */
  accountId: string;
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  lastUsedAt: number;
  /** Notification streams (GET) open now: a listening client is not idle. */
  openStreams: number;
};

/**
 * The MCP sessions of this process, keyed by `Mcp-Session-Id`. Bounded: idle sessions are
 * closed, each account holds a few at most, and `closeAll` ends every one at shutdown. Another
 * instance knows none of them: a client sent there gets 404 and initializes again (MCP spec).
 */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly sweep: NodeJS.Timeout;

  constructor(readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS, private readonly now: () => number = Date.now) {
    this.sweep = setInterval(() => this.closeIdle(), Math.max(1000, Math.min(60_000, limits.idleMs / 2)));
    this.sweep.unref();
  }

  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  touch(session: McpSession): void {
    session.lastUsedAt = this.now();
  }

  get size() {
    return this.sessions.size;
  }

  /** Keeps a new session; beyond the account's limit its least recently used ones are closed. */
  add(session: Omit<McpSession, 'lastUsedAt' | 'openStreams'>): void {
    this.sessions.set(session.id, { ...session, lastUsedAt: this.now(), openStreams: 0 });
    const own = [...this.sessions.values()].filter((s) => s.accountId === session.accountId).sort((a, b) => a.lastUsedAt - b.lastUsedAt);
    for (const old of own.slice(0, Math.max(0, own.length - this.limits.perAccount))) void this.close(old.id);
  }

  /** Forgets a session its transport closed (a DELETE, or `close`). */
  forget(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }

  /** Counts a notification stream as open until its body ends (the client left, or the session closed). */
  track(session: McpSession, response: Response): Response {
    if (!response.ok || !response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
    session.openStreams += 1;
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    void response.body.pipeTo(writable).catch(() => undefined).finally(() => {
      session.openStreams -= 1;
      session.lastUsedAt = this.now();
    });
    return new Response(readable, { status: response.status, headers: response.headers });
  }

  async close(id: string): Promise<void> {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    await session?.server.close().catch(() => undefined);
  }

  /** At shutdown: every session and its streams end, and the sweep stops. */
  async closeAll(): Promise<void> {
    clearInterval(this.sweep);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private closeIdle(): void {
    const cutoff = this.now() - this.limits.idleMs;
    for (const session of this.sessions.values()) {
      if (session.openStreams === 0 && session.lastUsedAt < cutoff) void this.close(session.id);
    }
  }
}
