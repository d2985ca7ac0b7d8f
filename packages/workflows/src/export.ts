import { CancellationScope } from '@temporalio/workflow';
import type { ExportWorkflowInput } from './definitions.ts';
import { isRenderFailure, renderFailure, renderFarm } from './render-farm.ts';

/** A re-export of a stored project version, asked for on the project page. */
export async function exportWorkflow({ exportId, heartbeatTimeoutMs }: ExportWorkflowInput): Promise<'done' | 'failed'> {
  const { farm, steps } = renderFarm(heartbeatTimeoutMs);
  try {
    await farm.exportVersion({ exportId });
    return 'done';
  } catch (error) {
    if (!isRenderFailure(error)) throw error;
    // Recorded even when the workflow was cancelled (through Temporal): the export must not stay unfinished.
    await CancellationScope.nonCancellable(() => steps.failExport({ exportId, error: renderFailure(error, { medium: 'A media file', then: 'Please try again.' }) }));
    return 'failed';
  }
}
