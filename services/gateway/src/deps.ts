import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { BlobStore } from '@vp/blobs';
import type { Config } from '@vp/config';
import type { Db } from '@vp/db';
import type { Principal } from './auth/principal.ts';
import type { McpSessions } from './mcp/sessions.ts';

/** What the gateway runs on; tests build it around their own database and Temporal. */
export type GatewayDeps = {
  config: Config;
  db: Db;
  /** Connected lazily, so the gateway starts (and /healthz answers) while Temporal is down. */
  temporal: () => Client;
  log: Logger;
  /** Where videos, posters and uploaded images are kept; by default the configured store. */
  blobs?: BlobStore;
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
