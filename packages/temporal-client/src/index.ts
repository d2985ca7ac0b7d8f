// The one place that starts, updates, signals and queries workflows. Workflow ids are in
// @vp/contracts/temporal, shared with the workflows themselves.
export { productionWorkflows, productionWorkflowSettings, UNCONFIRMED_CHANGE, type ProductionWorkflows, type ProductionWorkflowSettings } from './productions.ts';
export { renderFarmWorkflows, type RenderFarmWorkflows } from './renders.ts';
export { webhookWorkflows, type WebhookWorkflows } from './webhooks.ts';
export { isAlreadyStarted, temporalUnavailable } from './failures.ts';
