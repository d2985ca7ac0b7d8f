import { ActivityCancellationType, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { RENDER_TRIES, STEP_RETRY, type ProductionActivities, type ProductionWorkflowInput, type RenderFarmActivities } from '../definitions.ts';

/** The activities a production's workflow calls, as it calls them. */
export function productionActivities(input: ProductionWorkflowInput) {
  return {
    // Steps are short database transactions: local activities, run by the worker that runs the
    // workflow, without a round trip through a task queue for each stage change.
    steps: proxyLocalActivities<ProductionActivities>({ startToCloseTimeout: input.stepTimeoutMs, retry: STEP_RETRY }),
    // Writing a pitch may call a language model: it gets longer, and tries that end ("We could not write a pitch").
    writer: proxyActivities<Pick<ProductionActivities, 'writePitch'>>({
      startToCloseTimeout: '5 minutes',
      retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
    }),
    // Retried while the mail server is away, every 10 minutes at most, for a day (the links live 7).
    // A try reports each recipient: one that goes silent for 2 minutes (a worker killed) is tried
    // again, while a large workspace's list may take its time. Stopped, it is waited for: the
    // workflow never ends while it may still report (an event the ending's task would not expect).
    mail: proxyActivities<Pick<ProductionActivities, 'emailPitchLinks'>>({
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      startToCloseTimeout: '30 minutes',
      heartbeatTimeout: '2 minutes',
      scheduleToCloseTimeout: '1 day',
      retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
    }),
    // Notices (delivered, failed): retried as the pitch e-mails are, for a day.
    notices: proxyActivities<Pick<ProductionActivities, 'emailNotice'>>({
      startToCloseTimeout: '30 minutes',
      heartbeatTimeout: '2 minutes',
      scheduleToCloseTimeout: '1 day',
      retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
    }),
    renderFarm: proxyActivities<RenderFarmActivities>({
      taskQueue: input.renderTaskQueue,
      startToCloseTimeout: '30 minutes',
      heartbeatTimeout: input.renderHeartbeatTimeoutMs ?? '2 minutes',
      retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: RENDER_TRIES },
    }),
  };
}

export type Activities = ReturnType<typeof productionActivities>;
