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
  // Counted in polls rather than read from a clock: past the request's lifetime, stop.
  let waitedSeconds = 0;
  while (waitedSeconds <= request.expiresInSeconds + request.pollIntervalSeconds) {
    await sleep(request.pollIntervalSeconds * 1000, signal);
    waitedSeconds += request.pollIntervalSeconds;
    const answer = await post<{ status: string; apiKey?: string }>('/v1/keys/poll', { deviceCode: request.deviceCode }).catch((error: unknown) => unanswered(error, signal));
    if (!answer) continue;
    if (answer.status === 'approved' && answer.apiKey) return { apiKey: answer.apiKey, request };
    if (answer.status === 'claimed') {
      // Only this caller holds the device code: the key went out in an answer that never arrived.
      // Revoke it, so that no key lives that nobody has.
      await post('/v1/keys/poll', { deviceCode: request.deviceCode, revokeClaimed: true }).catch(() => undefined);
    }
    if (answer.status !== 'pending') throw new DeviceFlowError(answer.status);
    options.onPending?.();
  }
  throw new DeviceFlowError('expired');
}

/** A poll the service could not answer (a 5xx, a dropped connection) is simply made again at the next interval. */
function unanswered(error: unknown, signal: AbortSignal | undefined): null {
  if ((error instanceof ApiError && error.status < 500) || signal?.aborted) throw error;
  return null;
}
