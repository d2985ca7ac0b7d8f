// The workflow bundle: workflows only (each file imports @temporalio/workflow and contracts only).
export { productionWorkflow } from './production.ts';
export { webhookDeliveryWorkflow } from './webhook-delivery.ts';
export { webhookOutboxSweepWorkflow } from './webhook-outbox.ts';
export { linkEmailsWorkflow } from './link-emails.ts';
export { abandonRenderWorkflow, renderWorkflow } from './render.ts';
export { exportWorkflow } from './export.ts';
export { discardVideoWorkflow } from './discard-video.ts';
