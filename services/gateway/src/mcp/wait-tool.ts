import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { isTerminal, Production, QueueStatus, Stage, type Caller } from '@vp/contracts';
import { productionDetail, type ProductionDeps } from '@vp/productions';
import { answer, toolResult } from './tool-result.ts';

/** How long one call may wait at most, and by default (an MCP client's own request timeout is often a minute). */
export const MAX_WAIT_SECONDS = 300;
const DEFAULT_WAIT_SECONDS = 50;

export type WaitSettings = { pollMs: number };

/**
 * wait_for_production: reads the production until it reaches one of `until` (default
 * `pitch_ready`) or a final stage, or the wait runs out. Each change of stage or render phase is
 * sent as an MCP progress notification when the client asked for progress.
 */
export function registerWaitTool(server: McpServer, deps: ProductionDeps, caller: Caller, settings: WaitSettings) {
  server.registerTool('wait_for_production', {
    title: 'Wait for a production',
    description: `Blocks until the production reaches one of the stages in \`until\` (default: pitch_ready) or a final stage, sending progress notifications with the stage and render phase; gives up after timeoutSeconds (at most ${MAX_WAIT_SECONDS}) and answers with the production as it is (reached: false).`,
    inputSchema: z.object({
      id: z.uuid(),
      until: z.array(Stage).min(1).default(['pitch_ready']),
      timeoutSeconds: z.int().min(1).max(MAX_WAIT_SECONDS).default(DEFAULT_WAIT_SECONDS),
    }),
    outputSchema: z.object({ production: Production, queue: QueueStatus.nullable(), reached: z.boolean(), pitchMarkdown: z.string().nullable() }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ id, until, timeoutSeconds }, extra) => answer(async () => {
    const deadline = Date.now() + timeoutSeconds * 1000;
    const progressToken = extra._meta?.progressToken;
    let last = '';
    let step = 0;
    for (;;) {
      const detail = await productionDetail(deps, caller, id);
      const { stage } = detail.production;
      const phase = detail.queue?.phase ?? null;
      const now = `${stage}/${phase ?? ''}`;
      if (now !== last && progressToken !== undefined) {
        step += 1;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: step, message: phase ? `${stage}: ${phase}` : stage },
        });
      }
      last = now;
      const reached = until.includes(stage) || isTerminal(stage);
      if (reached || Date.now() >= deadline || extra.signal.aborted) {
        return toolResult({ production: detail.production, queue: detail.queue, reached, pitchMarkdown: detail.pitchMarkdown });
      }
      await sleep(Math.min(settings.pollMs, Math.max(0, deadline - Date.now())), undefined, { signal: extra.signal }).catch(() => undefined);
    }
  }));
}
