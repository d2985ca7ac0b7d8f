import fc from 'fast-check';
import { operationsOf, requestsFor, resolverOf, type FuzzRequest, type OpenApiDocument, type Operation } from './requests.ts';

/** The longest an answer may take. */
export const ANSWER_WITHIN_MS = 5000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEEP_IDS = 2000;

export type FuzzOptions = {
  /** The gateway, over HTTP. */
  baseUrl: string;
  requests: number;
  seed: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** A live API key with every scope: a new one each call (one is asked for again when a key stops working, revoked by a request). */
  newKey: () => Promise<string>;
  /** Keys in use at once, each taking its share of requests: the limit per key is per minute. */
  keys?: number;
  /** Files for `format: binary` (a real image). */
  files?: Uint8Array[];
  /** Values the document cannot know for a path parameter (a link's token), by the path before it, from the ids seen so far. */
  pathValues?: (prefix: string, seen: (prefix: string) => readonly string[]) => readonly string[];
  /** The run stops sending once it has found this many problems (a jammed production makes every later call to it wait). */
  maxFindings?: number;
};

/** One request's outcome, as the report lists what went wrong. */
export type Finding = { operation: string; kind: FuzzRequest['kind']; path: string; status: number; ms: number; body: string };

export type FuzzReport = {
  sent: number; elapsedMs: number;
  byOperation: Record<string, { sent: number; statuses: Record<number, number> }>;
  byKind: Record<FuzzRequest['kind'], number>;
  latencyMs: { p50: number; p99: number; max: number };
  /** Answered 5xx, or not at all. */
  serverErrors: Finding[];
  /** Answered after ANSWER_WITHIN_MS. */
  slow: Finding[];
  /** A 4xx whose body is not the error shape `{ error, code?, issues? }` (or, from a page, a page). */
  unshaped: Finding[];
};

/**
 * Sends `requests` requests drawn from the OpenAPI document the gateway serves, to every
 * operation in turn: each drawn with fast-check from the operation's JSON Schemas (seeded, one
 * seed per request), with keys, ids and tokens the run has seen. Every answer is checked: no 5xx,
 * within 5 s, and a 4xx in the error shape.
 */
export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const document = (await (await fetch(`${options.baseUrl}/v1/openapi.json`)).json()) as OpenApiDocument;
  const operations = operationsOf(document);
  const seen = new Map<string, string[]>();
  const ids = new Map<string, string[]>();
  const seenAt = (prefix: string) => seen.get(prefix) ?? [];
  const sources = {
    resolve: resolverOf(document), knownIds: (name?: string) => ids.get(name ?? '') ?? ids.get('') ?? [], files: options.files ?? [],
    pathValues: (prefix: string) => options.pathValues?.(prefix, seenAt) ?? seenAt(prefix),
  };
  const arbitraries = new Map(operations.map((operation) => [operation.name, requestsFor(operation, sources)]));
  const keys = await Promise.all(Array.from({ length: options.keys ?? 20 }, () => options.newKey()));
  const report: FuzzReport = {
    sent: 0, elapsedMs: 0, byOperation: {}, byKind: { valid: 0, near: 0, garbage: 0 }, latencyMs: { p50: 0, p99: 0, max: 0 }, serverErrors: [], slow: [], unshaped: [],
  };
  const latencies: number[] = [];
  const started = performance.now();

  async function send(index: number) {
    const operation = operations[index % operations.length]!;
    const [request] = fc.sample(arbitraries.get(operation.name)!, { seed: (options.seed * 100_003 + index) | 0, numRuns: 1 });
    const slot = index % keys.length;
    const key = keys[slot]!;
    const outcome = await answer(options.baseUrl, request!, { key, address: `198.18.${(index >> 8) & 255}.${index & 255}` });
    latencies.push(outcome.ms);
    count(report, operation, request!, outcome.status);
    const finding = { operation: operation.name, kind: request!.kind, path: request!.path.slice(0, 200), status: outcome.status, ms: Math.round(outcome.ms), body: outcome.text.slice(0, 300) };
    if (outcome.status >= 500 || outcome.status === 0) report.serverErrors.push(finding);
    if (outcome.ms > ANSWER_WITHIN_MS) report.slow.push(finding);
    if (outcome.status >= 400 && outcome.status < 500 && !outcome.type.startsWith('text/html') && !errorShaped(outcome.text)) report.unshaped.push(finding);
    // A key that stopped working (a request revoked it: DELETE /v1/keys/current) is replaced, so the run keeps its reach.
    if (request!.auth === 'key' && outcome.status === 401 && keys[slot] === key) keys[slot] = await options.newKey();
    if (outcome.status < 300) harvest(outcome.text, operation, seen, ids);
  }

  let next = 0;
  const findings = () => report.serverErrors.length + report.slow.length + report.unshaped.length;
  await Promise.all(Array.from({ length: options.concurrency }, async () => {
    while (next < options.requests && findings() < (options.maxFindings ?? 25)) await send(next++);
  }));
  report.sent = next;
  report.elapsedMs = Math.round(performance.now() - started);
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0);
  report.latencyMs = { p50: at(50), p99: at(99), max: at(100) };
  return report;
}

async function answer(baseUrl: string, request: FuzzRequest, via: { key: string; address: string }): Promise<{ status: number; ms: number; type: string; text: string }> {
  const headers: Record<string, string> = { ...request.headers, 'x-forwarded-for': via.address };
  if (request.auth === 'key') headers.authorization = `Bearer ${via.key}`;
  if (request.auth === 'junk') headers.authorization = 'Bearer svc_live_not-a-key-at-all-0000000000000000000000';
  const started = performance.now();
  try {
    const res = await fetch(`${baseUrl}${request.path}`, {
      // Twice the time an answer may take: long enough to say how late it was, short enough for a run to go on.
      method: request.method, headers, body: request.body, signal: AbortSignal.timeout(ANSWER_WITHIN_MS * 2),
      // The gateway's own answer is judged: a redirect (the old project addresses lead to the app) is not followed.
      redirect: 'manual',
    });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, type: res.headers.get('content-type') ?? '', text };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, type: '', text: String(error) };
  }
}

function count(report: FuzzReport, operation: Operation, request: FuzzRequest, status: number) {
  const entry = (report.byOperation[operation.name] ??= { sent: 0, statuses: {} });
  entry.sent++;
  entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
  report.byKind[request.kind]++;
}

function errorShaped(text: string): boolean {
  try {
    return typeof (JSON.parse(text) as { error?: unknown }).error === 'string';
  } catch {
    return false;
  }
}

/**
 * Ids in a 2xx answer: each top-level resource's `id` (or each of a list's) is kept for the
 * operation's own path (`/v1/webhooks/{id}/deliveries` gives deliveries' ids), where a path
 * parameter after that path draws it; every UUID anywhere is kept by the name it was found under
 * (`workspaceId`), and under '' for any UUID field.
 */
function harvest(text: string, operation: Operation, seen: Map<string, string[]>, ids: Map<string, string[]>) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof body !== 'object' || body === null) return;
  const own = seen.get(operation.template) ?? [];
  for (const value of Object.values(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id === 'string' && UUID.test(id) && !own.includes(id)) own.push(id);
    }
  }
  seen.set(operation.template, own.slice(-KEEP_IDS));
  JSON.stringify(body, (key, value: unknown) => {
    if (typeof value === 'string' && UUID.test(value)) for (const name of [key, '']) keep(ids, name, value);
    return value;
  });
}

function keep(ids: Map<string, string[]>, name: string, id: string) {
  const list = ids.get(name) ?? [];
  if (list.includes(id)) return;
  list.push(id);
  ids.set(name, list.slice(-KEEP_IDS));
}
