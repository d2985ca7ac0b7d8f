import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  CancelBody, CommentBody, CreateProductionBody, DeclineBody, GreenlightBody, Production, ProductionEvent, QueueStatus, Stage, StorableText, Usage,
  type Caller,
} from '@vp/contracts';
import { cancel, comment, createProduction, decline, greenlight, monthlyUsage, productionDetail, productionsOf, type ProductionDeps } from '@vp/productions';
import { answer, toolResult } from './tool-result.ts';

const Id = z.object({ id: z.uuid().describe('The production id.') });
const WorkspaceId = z.uuid().optional().describe('The workspace; default: your personal one.');
const ProductionOut = z.object({ production: Production });
/** The API's create body as a tool's input: its own root (a named schema would be a bare `$ref`, and tool inputs must be objects). */
const CreateInput = z.object(CreateProductionBody.shape);
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const READ = { readOnlyHint: true, openWorldHint: false };

/** The production tools: the same domain commands and reads as /v1/productions, as the consenting account. */
export function registerProductionTools(server: McpServer, deps: ProductionDeps, caller: Caller) {
  server.registerTool('create_production', {
    title: 'Create a production',
    description: 'Push a brief (what the video should say, optionally code changes, brand and format). A free pitch is written in the background; use wait_for_production to wait for `pitch_ready`, then greenlight, comment or decline.',
    inputSchema: CreateInput, outputSchema: ProductionOut,
    annotations: { ...WRITE, idempotentHint: true },
  }, (args) => answer(async () => toolResult({ production: (await createProduction(deps, caller, args)).production })));

  server.registerTool('list_productions', {
    title: 'List productions',
    description: 'Productions of a workspace, newest first; code sources are omitted. Pass nextCursor back as cursor for the next page.',
    inputSchema: z.object({
      workspaceId: WorkspaceId,
      stage: z.array(Stage).min(1).optional().describe('Only these stages.'),
      limit: z.int().min(1).max(100).default(20),
      cursor: StorableText.max(200).optional(),
    }),
    outputSchema: z.object({ productions: z.array(Production), nextCursor: z.string().optional() }),
    annotations: READ,
  }, (args) => answer(async () => toolResult(await productionsOf(deps, caller, args))));

  server.registerTool('get_production', {
    title: 'Get a production',
    description: 'A production with its timeline, its queue status while the video is made, and its pitch as markdown.',
    inputSchema: Id,
    outputSchema: z.object({ production: Production, events: z.array(ProductionEvent), queue: QueueStatus.nullable(), pitchMarkdown: z.string().nullable() }),
    annotations: READ,
  }, ({ id }) => answer(async () => {
    const detail = await productionDetail(deps, caller, id);
    return toolResult(detail, detail.pitchMarkdown ? `${JSON.stringify({ production: detail.production })}\n\n${detail.pitchMarkdown}` : undefined);
  }));

  server.registerTool('greenlight', {
    title: 'Greenlight the pitch',
    description: 'Charge the credits (once) and make the video. Pass pitchVersion to be sure you greenlight the version you read.',
    inputSchema: Id.extend(GreenlightBody.shape), outputSchema: ProductionOut,
    annotations: { ...WRITE, idempotentHint: true },
  }, ({ id, ...body }) => answer(async () => toolResult({ production: await greenlight(deps, caller, id, body) })));

  server.registerTool('comment', {
    title: 'Comment on the pitch',
    description: 'Ask for changes; the next pitch version is written (stage `writing_pitch`). 3 rounds per production.',
    inputSchema: Id.extend(CommentBody.shape), outputSchema: ProductionOut, annotations: WRITE,
  }, ({ id, ...body }) => answer(async () => toolResult({ production: await comment(deps, caller, id, body) })));

  server.registerTool('decline', {
    title: 'Decline the pitch',
    description: 'Decline the pitch: the production ends without a video and nothing is charged.',
    inputSchema: Id.extend(DeclineBody.shape), outputSchema: ProductionOut,
    annotations: { ...WRITE, destructiveHint: true },
  }, ({ id, ...body }) => answer(async () => toolResult({ production: await decline(deps, caller, id, body) })));

  server.registerTool('cancel', {
    title: 'Cancel a production',
    description: 'Cancel in any stage before the end; a charge is refunded in full before delivery.',
    inputSchema: Id.extend(CancelBody.shape), outputSchema: ProductionOut,
    annotations: { ...WRITE, destructiveHint: true },
  }, ({ id, ...body }) => answer(async () => toolResult({ production: await cancel(deps, caller, id, body) })));

  server.registerTool('get_usage', {
    title: "This month's usage",
    description: 'Pitches written against the monthly cap, the credit balance, productions created and delivered.',
    inputSchema: z.object({ workspaceId: WorkspaceId }), outputSchema: z.object({ usage: Usage }), annotations: READ,
  }, ({ workspaceId }) => answer(async () => toolResult(await monthlyUsage(deps, caller, workspaceId))));
}
