import { createApiClient, type ClientOptions } from './client.ts';
import { keysApi } from './keys.ts';
import { productionsApi } from './productions.ts';
import { rendersApi } from './renders.ts';
import type { WaitOptions } from './wait.ts';
import { webhooksApi } from './webhooks.ts';

/**
 * The Video Production Service client: `productions`, `webhooks`, `renders` and `keys`, each call
 * typed from the service's own OpenAPI document, retried on 429 and 5xx, failing with `ApiError`.
 * `api` is the underlying openapi-fetch client for any documented path.
 */
export function createClient(options: ClientOptions) {
  const api = createApiClient(options);
  const productions = productionsApi(api);
  return {
    api,
    productions,
    webhooks: webhooksApi(api),
    renders: rendersApi(api),
    keys: keysApi(api),
    /** Reads the production until `until` holds (default: it has ended), telling `onProgress` each change. */
    waitForProduction: (id: string, waitOptions: WaitOptions = {}) => productions.waitFor(id, waitOptions),
  };
}
export type VideoProductionClient = ReturnType<typeof createClient>;

export { createApiClient, type ApiClient, type ClientOptions, type Schemas } from './client.ts';
export { ApiError, DeviceFlowError, ProductionEndedError, retryAfterSeconds, type ApiErrorCode, type ValidationIssue } from './errors.ts';
export { retryingFetch, type RetryOptions } from './retry.ts';
export { paginate, type Page } from './pages.ts';
export { waitForProduction, isTerminal, TERMINAL_STAGES, type WaitOptions } from './wait.ts';
export { requestApiKey, type KeyRequest, type RequestApiKeyOptions } from './device.ts';
export type { Production, ProductionDetail, CreateProductionBody, ListProductionsQuery, Usage } from './productions.ts';
export type { WebhookEndpoint, WebhookDelivery } from './webhooks.ts';
export type { Render, RenderImage, CreateRenderOptions } from './renders.ts';
export type { Sleep } from './sleep.ts';
export type { components, paths } from './generated/api.ts';
