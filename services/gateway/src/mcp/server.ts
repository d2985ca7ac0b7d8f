import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Caller } from '@vp/contracts';
import type { Config } from '@vp/config';
import type { Domain } from '@vp/domain';
import { registerRenderTool } from './render-tool.ts';
import { registerProductionResources } from './resources.ts';
import { registerProductionTools } from './production-tools.ts';
import { registerSubscriptions, type SubscriptionSettings } from './subscriptions.ts';
import { registerWaitTool, type WaitSettings } from './wait-tool.ts';

export const SERVER_INFO = { name: 'video-production', title: 'Video production', version: '1.0.0' };

/**
 * The MCP server acting as `caller`: for one stateless request, or for a session, which alone
 * can take resource subscriptions (it has a stream to send their notifications on).
 */
export function createMcpServer(domain: Domain, config: Config, caller: Caller, wait: WaitSettings, subscriptions?: SubscriptionSettings): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, resources: subscriptions ? { subscribe: true } : {} },
    instructions: 'Turns a brief (what changed, for whom) into a pitch, then, once greenlit, into a video. create_production, then wait_for_production until pitch_ready, read the pitch, then greenlight, comment or decline; wait_for_production with until [delivered] for the video.',
  });
  registerProductionTools(server, domain.productions, caller);
  registerWaitTool(server, domain.productions, caller, wait);
  registerRenderTool(server, { ...domain.renders, config }, caller);
  registerProductionResources(server, domain.productions, caller);
  if (subscriptions) registerSubscriptions(server, domain.productions, caller, subscriptions);
  return server;
}
