import type { Logger } from 'pino';
import type { FrontDoorDeps } from '@vp/domain';
import type { Principal } from './auth/principal.ts';
import type { McpSessions } from './mcp/sessions.ts';

/** What the gateway runs on; tests build it around their own database and Temporal. */
export type GatewayDeps = FrontDoorDeps & {
  /**
   * MCP: how often wait_for_production and resource subscriptions read a production (ms; tests
   * read more often), and this process's sessions (the caller closes them at shutdown).
   */
  mcp?: { waitPollMs?: number; subscriptionPollMs?: number; sessions?: McpSessions };
};

/** Per-request values set by middleware. */
export type GatewayEnv = {
  Variables: {
    requestId: string;
    log: Logger;
    /** When the request arrived (ms since the epoch): a budget counted from the request starts here. */
    receivedAt: number;
    /** The API key's owner, on authenticated /v1 routes. */
    principal: Principal;
  };
};
