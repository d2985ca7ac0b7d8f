import { retryAfterSeconds } from './errors.ts';
import { sleep as realSleep, type Sleep } from './sleep.ts';

export type RetryOptions = {
  /** Tries after the first; 0 turns retrying off. Default 3. */
  maxRetries?: number;
  /** A `Retry-After` longer than this is not waited for: the answer is returned as it is. Default 60 s. */
  maxDelayMs?: number;
  /** How to wait between tries (tests pass a clock of their own). */
  sleep?: Sleep;
  /** Called before each wait: for logs and progress lines. */
  onRetry?: (info: { attempt: number; delayMs: number; status: number | null; url: string }) => void;
};

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRIED_5XX = new Set([500, 502, 503, 504]);

/**
 * A fetch that tries again on 429 and on 5xx, waiting what `Retry-After` says (else backing off).
 * A 429 did nothing, so any request is tried again (except the monthly `cap`, which a wait will not
 * lift); a 5xx or a dropped connection only for requests that are safe to repeat: reads, deletes,
 * and creates that carry an `externalId` (the service replays the first one).
 */
export function retryingFetch(fetchImpl: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const { maxRetries = 3, maxDelayMs = 60_000, sleep = realSleep } = options;
  return async (input, init) => {
    const request = new Request(input, init);
    const repeatable = await safeToRepeat(request);
    for (let attempt = 1; ; attempt++) {
      const last = attempt > maxRetries;
      let response: Response;
      try {
        response = await fetchImpl(last ? request : request.clone());
      } catch (error) {
        if (last || !repeatable || request.signal.aborted) throw error;
        await wait(attempt, backoff(attempt), null);
        continue;
      }
      if (last || !(await shouldRetry(response, repeatable))) return response;
      const after = retryAfterSeconds(response.headers.get('retry-after'));
      const delayMs = after === null ? backoff(attempt) : after * 1000;
      if (delayMs > maxDelayMs) return response;
      await response.body?.cancel();
      await wait(attempt, delayMs, response.status);
    }

    async function wait(attempt: number, delayMs: number, status: number | null) {
      options.onRetry?.({ attempt, delayMs, status, url: request.url });
      await sleep(delayMs, request.signal);
    }
  };
}

async function shouldRetry(response: Response, repeatable: boolean): Promise<boolean> {
  if (response.status === 429) return (await codeOf(response)) !== 'cap';
  return repeatable && RETRIED_5XX.has(response.status);
}

async function safeToRepeat(request: Request): Promise<boolean> {
  if (IDEMPOTENT_METHODS.has(request.method)) return true;
  if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith('/v1/productions')) return false;
  try {
    const body = (await request.clone().json()) as { externalId?: unknown };
    return typeof body.externalId === 'string' && body.externalId.length > 0;
  } catch {
    return false;
  }
}

async function codeOf(response: Response): Promise<unknown> {
  try {
    return ((await response.clone().json()) as { code?: unknown }).code;
  } catch {
    return undefined;
  }
}

/** 0.5 s, 1 s, 2 s, … up to 8 s, with jitter so that many clients do not come back together. */
function backoff(attempt: number): number {
  const base = Math.min(8000, 500 * 2 ** (attempt - 1));
  return Math.round(base / 2 + Math.random() * (base / 2));
}
