// The workflow bundle: workflows only (each file imports @temporalio/workflow and contracts only).
export { productionWorkflow } from './production/index.ts';
export { webhookDeliveryWorkflow } from './webhook-delivery.ts';
export { webhookOutboxSweepWorkflow } from './webhook-outbox-sweep.ts';
export { linkEmailsWorkflow } from './link-emails.ts';
export { renderWorkflow } from './render-images.ts';
export { abandonRenderWorkflow } from './abandon-render.ts';
export { exportWorkflow } from './export.ts';
export { discardVideoWorkflow } from './discard-video.ts';
export { keyRequestWorkflow } from './key-request.ts';
