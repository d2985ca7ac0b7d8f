import { clip, oneLine } from '../text.ts';

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export type ChatEndpoint = {
  baseUrl: string;
  apiKey: string | null | undefined;
  model: string;
  timeoutMs: number;
  fetch: typeof fetch;
};

export type ChatFailureKind = 'refused' | 'unreachable' | 'timeout' | 'http';

/** A chat-completions call that failed before the model's answer could be read. */
export class ChatFailure extends Error {
  readonly kind: ChatFailureKind;
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;

  constructor(kind: ChatFailureKind, message: string, retryable: boolean, retryAfterMs: number | null = null) {
    super(message);
    this.kind = kind;
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Answers not worth retrying; a refusal's message completes "The pitch writer's endpoint …". */
const REFUSALS: Record<number, string> = {
  400: 'rejected the request as invalid (HTTP 400)',
  401: 'refused the API key (HTTP 401); check the key',
  403: 'denied access (HTTP 403); check the key and its permissions for this model',
  404: 'answered 404 Not Found; check the base URL and the model name',
};

/**
 * One POST to `{baseUrl}/chat/completions` asking for a JSON object. Returns the message
 * content (null when the answer had none); throws a ChatFailure saying whether to retry.
 */
export async function complete(endpoint: ChatEndpoint, messages: ChatMessage[]): Promise<string | null> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const signal = AbortSignal.timeout(endpoint.timeoutMs);
  try {
    const response = await endpoint.fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: endpoint.model, messages, response_format: { type: 'json_object' } }),
      signal,
    });
    const body = await response.text();
    if (!response.ok) throw httpFailure(response, body);
    return contentOf(body);
  } catch (error) {
    if (error instanceof ChatFailure) throw error;
    if (signal.aborted) throw new ChatFailure('timeout', `no answer within ${endpoint.timeoutMs} ms`, true);
    throw new ChatFailure('unreachable', `could not reach ${originOf(url)}: ${causeOf(error)}`, true);
  }
}

function httpFailure(response: Response, body: string): ChatFailure {
  const detail = errorDetail(body);
  const said = detail ? `: ${detail}` : '';
  const refusal = REFUSALS[response.status];
  if (refusal) return new ChatFailure('refused', `${refusal}${said}`, false);
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${said}`;
  const retryable = response.status === 408 || response.status === 409 || response.status === 429 || response.status >= 500;
  if (!retryable) return new ChatFailure('refused', `answered ${status}`, false);
  return new ChatFailure('http', status, true, retryAfter(response.headers.get('retry-after')));
}

/** The message content of a chat-completions answer; a body that is not one counts as a bad answer. */
function contentOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { choices?: { message?: { content?: unknown } }[] };
    const content = parsed.choices?.[0]?.message?.content;
    return typeof content === 'string' ? content : null;
  } catch {
    return null;
  }
}

function errorDetail(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message ?? parsed.message;
    if (typeof message === 'string') return clip(oneLine(message), 300);
  } catch {
    // Not JSON: quote the start of the body as it is.
  }
  return clip(oneLine(body), 300);
}

function retryAfter(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the endpoint';
  }
}
