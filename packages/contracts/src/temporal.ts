/** Task queues and workflow ids shared by the gateway (client side) and the workers. */
export const TASK_QUEUES = {
  productions: 'productions',
  webhooks: 'webhooks',
  keys: 'key-requests',
  render: 'render',
  /** Storyboard stills, apart from the videos so that they never wait behind one (nor slow one down). */
  storyboard: 'storyboard',
} as const;
export type TaskQueueName = keyof typeof TASK_QUEUES;

/** A prefix lets several test files share one Temporal server without sharing queues. */
export function taskQueue(name: TaskQueueName, prefix = ''): string {
  return prefix ? `${prefix}-${TASK_QUEUES[name]}` : TASK_QUEUES[name];
}

/**
 * The failure type of a step whose production row is gone (a create undone after a workflow
 * start whose answer was lost): no retry can bring it back. Temporal names an activity's
 * failure after the error's class, so this is the class's name.
 */
export const PRODUCTION_GONE = 'ProductionGoneError';

export const workflowIds = {
  production: (productionId: string) => `production-${productionId}`,
  webhookDelivery: (deliveryId: string) => `webhook-delivery-${deliveryId}`,
  linkEmails: (productionId: string, pitchVersion: number) => `link-emails-${productionId}-${pitchVersion}`,
  keyRequest: (requestId: string) => `key-request-${requestId}`,
  render: (renderId: string) => `render-${renderId}`,
  export: (exportId: string) => `export-${exportId}`,
  discardVideo: (exportId: string) => `discard-video-${exportId}`,
  /** A schedule, one per deployment (task queue prefix). */
  outboxSweep: (taskQueuePrefix: string) => `${taskQueuePrefix}webhook-outbox-sweep`,
};

/**
 * The custom search attributes workflows are listed by, registered on every Temporal server the
 * service uses: the dev server at its start, docker-compose.yml's one-shot service (which must list
 * the same), and a deployment's own server by its operator.
 */
export const SEARCH_ATTRIBUTES = {
  WorkspaceId: 'Keyword',
  ProductionId: 'Keyword',
  Stage: 'Keyword',
  WebhookEndpointId: 'Keyword',
  EventType: 'Keyword',
  AccountId: 'Keyword',
  KeyRequestStatus: 'Keyword',
} as const;

/**
 * The keys of those attributes as Temporal's SDKs take them (what `defineSearchAttributeKey`
 * makes: a name and a type), for workflow starts and `upsertSearchAttributes`.
 */
const keyword = (name: keyof typeof SEARCH_ATTRIBUTES) => ({ name, type: 'KEYWORD' as const });
export const SEARCH_ATTRIBUTE_KEYS = {
  workspaceId: keyword('WorkspaceId'),
  productionId: keyword('ProductionId'),
  stage: keyword('Stage'),
  webhookEndpointId: keyword('WebhookEndpointId'),
  eventType: keyword('EventType'),
  accountId: keyword('AccountId'),
  keyRequestStatus: keyword('KeyRequestStatus'),
};
