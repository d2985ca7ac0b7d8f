// The one place that starts, updates, signals and queries workflows. Workflow ids are in
// @vp/contracts/temporal, shared with the workflows themselves.
export { productionWorkflows, productionWorkflowSettings, UNCONFIRMED_CHANGE, type ProductionWorkflows, type ProductionWorkflowSettings } from './productions.ts';
export { renderFarmWorkflows, type RenderFarmWorkflows } from './renders.ts';
export { keyRequestWorkflows, keyRequestWorkflowSettings, type KeyRequestWorkflows, type KeyRequestWorkflowSettings } from './key-requests.ts';
export { webhookWorkflows, type WebhookWorkflows } from './webhooks.ts';
export { isAlreadyStarted, temporalUnavailable } from './failures.ts';
export { failureConverterPath, temporalDataConverter, type PayloadKeys } from './data-converter.ts';
export { AesGcmPayloadCodec } from './payload-codec.ts';
export { temporalClient } from './client.ts';
