import fc from 'fast-check';
import { knownOr, nearValue, validValue, type JsonSchema, type ValueSources } from './schema-values.ts';
import { percentEncoded, wtf8 } from './text.ts';

type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: JsonSchema };
type OpenApiOperation = {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  security?: unknown[];
};
export type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>>; components?: { schemas?: Record<string, JsonSchema> } };

const BODY_TYPES = ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'] as const;
type BodyType = (typeof BODY_TYPES)[number];

/** One route of the document: `POST /v1/productions/{id}/comments`. */
export type Operation = {
  name: string; method: string; template: string; parameters: Parameter[]; public: boolean;
  body: { type: BodyType; schema: JsonSchema; required: boolean } | null;
};

/** Every operation the document describes, in its order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([template, methods]) => Object.entries(methods).map(([method, operation]) => {
    const content = operation.requestBody?.content ?? {};
    const type = BODY_TYPES.find((t) => content[t]);
    return {
      name: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), template, parameters: operation.parameters ?? [],
      public: Array.isArray(operation.security) && operation.security.length === 0,
      body: type ? { type, schema: content[type]!.schema, required: operation.requestBody?.required ?? false } : null,
    };
  }));
}

/** Resolves the document's `#/components/schemas/…` references. */
export function resolverOf(document: OpenApiDocument): (schema: JsonSchema) => JsonSchema {
  return (schema) => (schema.$ref ? document.components?.schemas?.[schema.$ref.split('/').at(-1)!] ?? {} : schema);
}

/** What a request is made of, before a key is put on it (keys change while a run goes on). */
export type FuzzRequest = {
  operation: string; kind: 'valid' | 'near' | 'garbage'; method: string; path: string;
  auth: 'key' | 'none' | 'junk'; headers: Record<string, string>; body: Uint8Array | null;
};

/** Where values the schema cannot know come from: ids the service gave out, per address they are used at. */
export type RequestSources = ValueSources & {
  /** Values for a path parameter, by the path before it (`/v1/productions` for `/v1/productions/{id}`). */
  pathValues: (prefix: string) => readonly string[];
};

type Part = { name: string; value: unknown };

/** One of the keys, as often as its weight says. */
const weighted = <T extends string>(weights: Record<T, number>): fc.Arbitrary<T> =>
  fc.oneof(...Object.entries<number>(weights).map(([value, weight]) => ({ weight, arbitrary: fc.constant(value as T) })));

/**
 * Requests for one operation: valid ones (each parameter and body as its schema takes them, ids
 * the service gave out where there are some), near-valid ones (one defect, anywhere in them),
 * and garbage (a body that is not what the route reads at all).
 */
export function requestsFor(operation: Operation, sources: RequestSources): fc.Arbitrary<FuzzRequest> {
  const kind = weighted<FuzzRequest['kind']>({ valid: 10, near: 8, garbage: 2 });
  const auth = weighted<FuzzRequest['auth']>(operation.public ? { none: 18, key: 1, junk: 1 } : { key: 18, none: 1, junk: 1 });
  return fc.tuple(kind, auth).chain(([chosen, key]) => {
    // Which part carries the one defect of a near-valid request.
    const places = [...operation.parameters.map((p) => p.name), ...(operation.body ? ['(body)'] : [])];
    const flawed = chosen === 'near' && places.length ? fc.constantFrom(...places) : fc.constant(null);
    return flawed.chain((place) => fc.tuple(
      fc.tuple(...operation.parameters.map((p) => parameterValue(operation, p, sources, place === p.name))),
      bodyOf(operation, sources, chosen === 'garbage' ? 'garbage' : place === '(body)' ? 'near' : 'valid'),
    ).map(([values, body]): FuzzRequest => {
      let path = operation.template;
      const query: string[] = [];
      operation.parameters.forEach((p, i) => {
        const value = values[i];
        if (value === undefined) return;
        if (p.in === 'path') path = path.replace(`{${p.name}}`, percentEncoded(String(value)));
        if (p.in === 'query') query.push(`${percentEncoded(p.name)}=${percentEncoded(String(value))}`);
      });
      return {
        operation: operation.name, kind: chosen, method: operation.method, path: query.length ? `${path}?${query.join('&')}` : path,
        auth: key, headers: body.type ? { 'content-type': body.type } : {}, body: body.bytes,
      };
    }));
  });
}

function parameterValue(operation: Operation, p: Parameter, sources: RequestSources, flawed: boolean): fc.Arbitrary<unknown> {
  if (flawed) return nearValue(p.schema, sources);
  if (p.in === 'path') {
    const prefix = operation.template.slice(0, operation.template.indexOf(`/{${p.name}}`));
    return knownOr(() => sources.pathValues(prefix), validValue(p.schema, sources) as fc.Arbitrary<string>);
  }
  const value = validValue(p.schema, sources, 0, p.name);
  return p.required ? value : fc.option(value, { nil: undefined, freq: 2 });
}

type Body = { type: string | null; bytes: Uint8Array | null };

function bodyOf(operation: Operation, sources: RequestSources, kind: 'valid' | 'near' | 'garbage'): fc.Arbitrary<Body> {
  if (operation.method === 'GET' || operation.method === 'HEAD') return fc.constant({ type: null, bytes: null });
  if (kind === 'garbage') return garbage;
  const body = operation.body;
  if (!body) return fc.constant({ type: null, bytes: null });
  const value = kind === 'near' ? nearValue(body.schema, sources) : validValue(body.schema, sources);
  const sent = body.required || kind === 'near' ? value : fc.option(value, { nil: undefined, freq: 4 });
  return sent.map((v) => {
    if (v === undefined) return { type: null, bytes: null };
    if (body.type === 'application/json') return { type: body.type, bytes: Buffer.from(JSON.stringify(v)) };
    if (body.type === 'application/x-www-form-urlencoded') return { type: body.type, bytes: Buffer.from(urlencoded(partsOf(v))) };
    return multipart(partsOf(v));
  });
}

/** An object's properties as form parts: an array's items each a part of the same name. */
function partsOf(value: unknown): Part[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [{ name: 'value', value }];
  return Object.entries(value).flatMap(([name, v]) => (Array.isArray(v) ? v.map((item) => ({ name, value: item })) : [{ name, value: v }]));
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

/** A form as a browser sends it: `name=value&…`, percent-encoded UTF-8 (WTF-8 for text that is not). */
function urlencoded(parts: Part[]): string {
  return parts.map(({ name, value }) => `${percentEncoded(name)}=${percentEncoded(text(value))}`).join('&');
}

const BOUNDARY = 'fuzz-boundary-7MA4YWxkTrZu0gW';

function multipart(parts: Part[]): Body {
  const chunks = parts.flatMap(({ name, value }) => {
    const file = value instanceof Uint8Array;
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"${file ? '; filename="image.png"\r\nContent-Type: application/octet-stream' : ''}\r\n\r\n`;
    const content = file ? value : wtf8(text(value));
    return [Buffer.from(head), content, Buffer.from('\r\n')];
  });
  return { type: `multipart/form-data; boundary=${BOUNDARY}`, bytes: Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]) };
}

const json = (type: string) => (text: string | Uint8Array): Body => ({ type, bytes: typeof text === 'string' ? Buffer.from(text) : text });

/** Bodies no route reads: broken JSON, JSON that is not UTF-8, nested deep, over the limit; other types; a broken form. */
const garbage: fc.Arbitrary<Body> = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null').map(json('application/json')),
  fc.constantFrom('{"brief": {', '', 'nul\u0000l', `{"a":${'['.repeat(5000)}`, '[]', '{"__proto__":{"x":1}}').map(json('application/json')),
  fc.constantFrom('\ud800', '\udc00', '\udc00\ud800').map((unit) => Buffer.concat([Buffer.from('{"comment":"'), wtf8(unit), Buffer.from('"}')])).map(json('application/json')),
  fc.constant(`{"x":"${'a'.repeat((1 << 20) + 1)}"}`).map(json('application/json')),
  fc.string().map(json('text/plain')),
  fc.constantFrom('a=1&b=%ED%A0%80', 'comment=%00').map(json('application/x-www-form-urlencoded')),
  fc.constantFrom(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="images"\r\n\r\nx`, 'no boundary').map(json(`multipart/form-data; boundary=${BOUNDARY}`)),
);
