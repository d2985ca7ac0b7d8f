import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import { ApiError } from './errors.ts';
import type { components, paths } from './generated/api.ts';
import { retryingFetch, type RetryOptions } from './retry.ts';

export type Schemas = components['schemas'];
export type ApiClient = Client<paths>;

export type ClientOptions = {
  /** The service's base address, e.g. `https://api.example.com` (no `/v1`). */
  baseUrl: string;
  /** `svc_live_…`; omitted for the public routes (the device flow). */
  apiKey?: string;
  /** Another fetch (a proxy's, a test's); by default the platform's. */
  fetch?: typeof fetch;
  /** Retrying of 429 and 5xx; `false` turns it off. */
  retry?: RetryOptions | false;
  /** Headers sent with every request (e.g. a `User-Agent` where the platform lets one be set). */
  headers?: Record<string, string>;
};

/** Every non-2xx answer becomes an `ApiError`, so `data` is there whenever a call returns. */
const throwApiErrors: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await ApiError.from(response.clone());
    return undefined;
  },
};

/**
 * The typed openapi-fetch client over the service's paths, with the key, retries and typed errors.
 * `GET`, `POST`, … take the documented paths and return `{ data, response }`.
 */
export function createApiClient(options: ClientOptions): ApiClient {
  const base = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.retry === false ? base : retryingFetch(base, options.retry),
    headers: { ...options.headers, ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
  });
  client.use(throwApiErrors);
  return client;
}

/** The body of a successful call: `throwApiErrors` made sure there is one. */
export async function bodyOf<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data, response } = await call;
  if (data === undefined) throw new ApiError({ status: response.status, message: `The service answered ${response.status} without a body` });
  return data;
}
