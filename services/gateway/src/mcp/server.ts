import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Caller } from '@vp/contracts';
import type { Config } from '@vp/config';
import type { Domain } from '@vp/domain';
import { registerRenderTool } from './render-tool.ts';
import { registerProductionResources } from './resources.ts';
import { registerProductionTools } from './production-tools.ts';
import { registerWaitTool, type WaitSettings } from './wait-tool.ts';

export const SERVER_INFO = { name: 'video-production', title: 'Video production', version: '1.0.0' };

/** The MCP server for one request, acting as `caller`: stateless, so any gateway instance answers any request. */
export function createMcpServer(domain: Domain, config: Config, caller: Caller, wait: WaitSettings): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions: 'Turns a brief (what changed, for whom) into a pitch, then, once greenlit, into a video. create_production, then wait_for_production until pitch_ready, read the pitch, then greenlight, comment or decline; wait_for_production with until [delivered] for the video.',
  });
  registerProductionTools(server, domain.productions, caller);
  registerWaitTool(server, domain.productions, caller, wait);
  registerRenderTool(server, { ...domain.renders, config }, caller);
  registerProductionResources(server, domain.productions, caller);
  return server;
}
