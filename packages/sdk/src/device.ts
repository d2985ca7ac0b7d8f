import { bodyOf, createApiClient, type Schemas } from './client.ts';
import { ApiError, DeviceFlowError } from './errors.ts';
import { sleep as realSleep, type Sleep } from './sleep.ts';

export type KeyRequest = Schemas['KeyRequestStarted'];

export type RequestApiKeyOptions = {
  baseUrl: string;
  /** Who is asking: the key is named after it (1 to 100 characters), e.g. `vp on laptop`. */
  name: string;
  /** Show `approvalUrl` and `userCode` to the person who will approve (and open a browser where one exists). */
  onApproval: (request: KeyRequest) => void | Promise<void>;
  /** Called after each poll that found the request still waiting. */
  onPending?: () => void | Promise<void>;
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
  // The routes are public: no key. A 429 is waited out by the client's retries.
  const api = createApiClient({ baseUrl: options.baseUrl, fetch: options.fetch, retry: { sleep } });
  const poll = (body: Schemas['KeyPollBody']) => bodyOf(api.POST('/v1/keys/poll', { body, signal }));
  const request = await bodyOf(api.POST('/v1/keys/request', { body: { name: options.name }, signal }));
  await options.onApproval(request);
  // Counted in polls rather than read from a clock: past the request's lifetime, stop.
  let waitedSeconds = 0;
  while (waitedSeconds <= request.expiresInSeconds + request.pollIntervalSeconds) {
    await sleep(request.pollIntervalSeconds * 1000, signal);
    waitedSeconds += request.pollIntervalSeconds;
    const answer = await poll({ deviceCode: request.deviceCode }).catch((error: unknown) => unanswered(error, signal));
    if (!answer) continue;
    if (answer.status === 'approved' && answer.apiKey) return { apiKey: answer.apiKey, request };
    if (answer.status === 'claimed') {
      // Only this caller holds the device code: the key went out in an answer that never arrived.
      // Revoke it, so that no key lives that nobody has.
      await poll({ deviceCode: request.deviceCode, revokeClaimed: true }).catch(() => undefined);
    }
    if (answer.status !== 'pending') throw new DeviceFlowError(answer.status);
    await options.onPending?.();
  }
  throw new DeviceFlowError('expired');
}

/** A poll the service could not answer (a 5xx, a dropped connection) is simply made again at the next interval. */
function unanswered(error: unknown, signal: AbortSignal | undefined): null {
  if ((error instanceof ApiError && error.status < 500) || signal?.aborted) throw error;
  return null;
}
