import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, isTerminal, type Caller, type Production } from '@vp/contracts';
import { productionDetail, type ProductionDeps } from '@vp/productions';
import { productionIdOf } from './resources.ts';

/** The MCP error code for a resource that does not exist (or the caller may not see). */
const RESOURCE_NOT_FOUND = -32002;
/** Productions one session may watch at once: each is read every poll. */
export const MAX_SUBSCRIPTIONS = 50;

/** How often a session reads the productions it watches: a modest pace, as each is a read of the database. */
export const SUBSCRIPTION_POLL_MS = 5000;

export type SubscriptionSettings = { pollMs: number };

type Watch = { id: string; seen: string; final: boolean };

/** What a subscriber is told about: a new stage, a new pitch version, the delivery. */
const fingerprint = (p: Production) => `${p.stage}|${p.pitch?.version ?? ''}|${p.delivery ? 'delivered' : ''}`;

/**
 * resources/subscribe and resources/unsubscribe for `production://{id}`, on a session's server.
 * Changes are learned as wait_for_production learns them, by reading the production: only the
 * subscribed ones, every `pollMs`, and no longer once they end. Each change is sent as
 * `notifications/resources/updated`; the client reads the resource again for the content.
 */
export function registerSubscriptions(server: McpServer, deps: ProductionDeps, caller: Caller, settings: SubscriptionSettings): void {
  const watched = new Map<string, Watch>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const schedule = () => {
    if (closed || timer || ![...watched.values()].some((w) => !w.final)) return;
    timer = setTimeout(() => void poll(), settings.pollMs);
    timer.unref();
  };

  const poll = async () => {
    try {
      await readEach();
    } finally {
      timer = undefined;
      schedule();
    }
  };

  const readEach = async () => {
    for (const [uri, watch] of watched) {
      if (watch.final || closed) continue;
      const production = await productionDetail(deps, caller, watch.id).then((d) => d.production, (error: unknown) => {
        // Out of sight now (a membership ended): nothing more to tell.
        if (error instanceof DomainError && error.code === 'not_found') watched.delete(uri);
        return null;
      });
      if (!production || watched.get(uri) !== watch) continue;
      watch.final = isTerminal(production.stage);
      const now = fingerprint(production);
      if (now === watch.seen) continue;
      watch.seen = now;
      await server.server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
  };

  server.server.setRequestHandler(SubscribeRequestSchema, async ({ params: { uri } }) => {
    const id = productionIdOf(uri);
    if (!id) throw new McpError(RESOURCE_NOT_FOUND, `No such resource: ${uri}. Subscribe to production://{id}.`);
    if (!watched.has(uri) && watched.size >= MAX_SUBSCRIPTIONS) {
      throw new McpError(ErrorCode.InvalidRequest, `A session may watch ${MAX_SUBSCRIPTIONS} productions at once; unsubscribe from one first.`);
    }
    const { production } = await productionDetail(deps, caller, id).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'not_found') throw new McpError(RESOURCE_NOT_FOUND, `No such resource: ${uri}.`);
      throw error;
    });
    watched.set(uri, { id, seen: fingerprint(production), final: isTerminal(production.stage) });
    schedule();
    return {};
  });

  server.server.setRequestHandler(UnsubscribeRequestSchema, ({ params: { uri } }) => {
    watched.delete(uri);
    return {};
  });

  server.server.onclose = () => {
    closed = true;
    clearTimeout(timer);
    watched.clear();
  };
}
