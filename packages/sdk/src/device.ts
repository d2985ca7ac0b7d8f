import { ApiError, DeviceFlowError } from './errors.ts';
import { retryingFetch } from './retry.ts';
import { sleep as realSleep, type Sleep } from './sleep.ts';

export type KeyRequest = {
  deviceCode: string;
  userCode: string;
  approvalUrl: string;
  expiresInSeconds: number;
  pollIntervalSeconds: number;
};

export type RequestApiKeyOptions = {
  baseUrl: string;
  /** Who is asking: the key is named after it (1 to 100 characters), e.g. `vp on laptop`. */
  name: string;
  /** Show `approvalUrl` and `userCode` to the person who will approve (and open a browser where one exists). */
  onApproval: (request: KeyRequest) => void | Promise<void>;
  /** Called after each poll that found the request still waiting. */
  onPending?: () => void;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  sleep?: Sleep;
};

/**
 * The device flow as one call: asks for a key, hands the approval address to `onApproval`, then
 * polls every `pollIntervalSeconds` until the person approves in a browser and returns the key
 * (shown once). A refusal, an expiry or a key collected elsewhere rejects with `DeviceFlowError`.
 */
export async function requestApiKey(options: RequestApiKeyOptions): Promise<{ apiKey: string; request: KeyRequest }> {
  const { sleep = realSleep, signal } = options;
  const fetchImpl = retryingFetch(options.fetch ?? ((input, init) => globalThis.fetch(input, init)), { sleep });
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetchImpl(`${options.baseUrl.replace(/\/+$/, '')}${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal,
    });
    if (!response.ok) throw await ApiError.from(response);
    return (await response.json()) as T;
  };
  const request = await post<KeyRequest>('/v1/keys/request', { name: options.name });
  await options.onApproval(request);
  for (;;) {
    await sleep(request.pollIntervalSeconds * 1000, signal);
    const answer = await post<{ status: string; apiKey?: string }>('/v1/keys/poll', { deviceCode: request.deviceCode });
    if (answer.status === 'approved' && answer.apiKey) return { apiKey: answer.apiKey, request };
    if (answer.status !== 'pending') throw new DeviceFlowError(answer.status);
    options.onPending?.();
  }
}
