import { isTerminal, type ProductionDetail, type VideoProductionClient } from '@vp/sdk';
import type { Context } from './context.ts';
import { productionText, progressText } from './format.ts';
import { EXIT, line, printJson } from './io.ts';
import { statusLine } from './spinner.ts';

/**
 * The live view of `--wait`: the stage, and while the video is made the phase and percentage,
 * until the production ends. Delivered: the share URL and exit 0; ended otherwise: exit 1.
 */
export async function watch(context: Context, client: VideoProductionClient, id: string, options: { intervalMs?: number } = {}): Promise<number> {
  const status = statusLine(context.stderr);
  let detail: ProductionDetail;
  try {
    // Until it ends, however it ends: the ending decides the exit code below.
    detail = await client.waitForProduction(id, {
      intervalMs: options.intervalMs ?? intervalFrom(context.env),
      onProgress: (read) => status.update(progressText(read)),
      until: (read) => isTerminal(read.production),
    });
  } finally {
    status.stop();
  }
  return finish(context, detail);
}

export function finish(context: Context, detail: ProductionDetail): number {
  const delivered = detail.production.stage === 'delivered';
  if (context.json) printJson(context.stdout, detail);
  else if (delivered) line(context.stdout, `Delivered: ${detail.production.delivery?.shareUrl}`);
  else line(context.stdout, productionText(detail));
  return delivered ? EXIT.done : EXIT.failed;
}

/** How often the live view reads the production: VP_POLL_INTERVAL_MS, else every 2 s. */
export function intervalFrom(env: Context['env']): number {
  const value = Number(env.VP_POLL_INTERVAL_MS);
  return Number.isFinite(value) && value >= 100 ? value : 2000;
}
