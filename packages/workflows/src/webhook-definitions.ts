/** One delivery: ids and the schedule only; the activity loads the event, endpoint and secret. */
export type WebhookDeliveryInput = {
  deliveryId: string;
  /** Waits before each retry; attempt 1 is at once (configuration: WEBHOOK_RETRY_SCHEDULE_MS). */
  retryScheduleMs: number[];
  /** The time a receiver has to answer (WEBHOOK_TIMEOUT_MS); the activity gets a margin on top. */
  timeoutMs: number;
  /** Where a workflow continued as new goes on (1 when absent). */
  firstAttempt?: number;
};

/** Greenlight links by e-mail to each owner and editor, once per pitch version. */
export type LinkEmailsInput = { productionId: string; pitchVersion: number };

/** Activities of the webhooks task queue (implemented in @vp/activities). */
export interface WebhookActivities {
  /**
   * Makes attempt `attempt` unless it was made and recorded already; `done` when the delivery
   * succeeded or is exhausted; `held` when webhooks are switched off on the server (nothing sent:
   * the same attempt is made later). Fails only when our side does (the database), or while the attempt
   * is under way elsewhere: retried, it is made again once its claim lapses.
   */
  attemptDelivery(input: { deliveryId: string; attempt: number; retryInMs: number | null }): Promise<{ done: boolean; held?: boolean }>;
  /**
   * The outbox sweep: starts the workflows of deliveries recorded but never attempted, and
   * again those of deliveries overdue whose workflow ended without them; says how many of each.
   */
  sweepDeliveries(): Promise<{ started: number; restarted: number }>;
  /** Sends the pitch's links to every owner and editor not yet sent them; returns how many were sent. */
  sendLinkEmails(input: LinkEmailsInput): Promise<{ sent: number }>;
}
