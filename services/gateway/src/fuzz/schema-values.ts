import fc from 'fast-check';
import { nearText, writtenText } from './text.ts';

/** The parts of JSON Schema (2020-12, as OpenAPI 3.1 has it) the service's documents use. */
export type JsonSchema = {
  $ref?: string; type?: string | string[]; enum?: unknown[]; const?: unknown; format?: string; pattern?: string;
  minLength?: number; maxLength?: number; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number;
  items?: JsonSchema; minItems?: number; maxItems?: number;
  properties?: Record<string, JsonSchema>; required?: string[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[];
};

/** What values are drawn from beyond the schema: its `$ref`s, ids the service gave out, sample files. */
export type ValueSources = {
  resolve: (schema: JsonSchema) => JsonSchema;
  /**
   * UUIDs seen in the service's answers when a value is drawn: ids that exist. By the name of the
   * field (`workspaceId`) when they were seen under that name, else any.
   */
  knownIds: (name?: string) => readonly string[];
  /** Files for `format: binary` (a real image, say); random bytes are drawn too. */
  files: readonly Uint8Array[];
};

/** Values of every JSON type, for a field given the wrong one. */
const WRONG_TYPES: unknown[] = [null, 0, -1, 1.5, 1e308, true, '', 'x', [], {}, [1, 'a'], { a: null }];
const JUNK_KEYS = ['x\u0000', '\ud800', '', '__proto__', 'constructor', 'ＩＤ'];
const URLS = ['https://1.1.1.1/hook', 'https://example.com/a.png', 'http://[2606:4700:4700::1111]/x.mp4', 'https://xn--bcher-kva.example/ü'];
const NEAR_URLS = ['javascript:alert(1)', 'ftp://example.com/x', 'https://localhost/', 'https://10.0.0.1/x', 'https://169.254.169.254/latest', 'https://', '//example.com', 'https://exa mple.com'];

const typesOf = (schema: JsonSchema) => (schema.type === undefined ? [] : [schema.type].flat());

/** An arbitrary of one id the service gave out (when there is one yet), or of any UUID. */
export function knownOr(ids: () => readonly string[], otherwise: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(fc.nat(), otherwise).map(([n, other]) => {
    const known = ids();
    return known.length ? known[n % known.length]! : other;
  });
}

/** Values the schema takes: every required property, optional ones at random, bounds hit now and then. */
export function validValue(schema: JsonSchema, sources: ValueSources, depth = 0, name?: string): fc.Arbitrary<unknown> {
  const s = sources.resolve(schema);
  if (depth > 12) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => validValue(branch, sources, depth + 1, name)));
  const types = typesOf(s);
  if (types.length !== 1) return types.length ? fc.oneof(...types.map((type) => validValue({ ...s, type }, sources, depth, name))) : fc.jsonValue({ maxDepth: 2 });
  switch (types[0]) {
    case 'string': return validString(s, sources, name);
    case 'integer': return fc.integer({ min: Math.ceil(s.minimum ?? -1_000_000), max: Math.floor(s.maximum ?? 1_000_000) });
    case 'number': return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': {
      const min = s.minItems ?? 0;
      return fc.array(validValue(s.items ?? {}, sources, depth + 1), { minLength: min, maxLength: Math.min(s.maxItems ?? min + 3, min + 3) });
    }
    case 'object': {
      const properties = Object.fromEntries(Object.entries(s.properties ?? {}).map(([key, property]) => [key, validValue(property, sources, depth + 1, key)]));
      return fc.record(properties, { requiredKeys: (s.required ?? []).filter((name) => name in properties) });
    }
    default: return fc.jsonValue({ maxDepth: 1 });
  }
}

function validString(s: JsonSchema, sources: ValueSources, name?: string): fc.Arbitrary<string | Uint8Array> {
  if (s.format === 'uuid') return knownOr(() => sources.knownIds(name), fc.uuid());
  if (s.format === 'uri') return fc.oneof(fc.webUrl({ validSchemes: ['https', 'http'], size: 'small' }), fc.constantFrom(...URLS)).filter((url) => url.length <= (s.maxLength ?? Infinity));
  if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  if (s.format === 'binary') return fc.oneof(fc.constantFrom(...(sources.files.length ? sources.files : [new Uint8Array()])), fc.uint8Array({ maxLength: 64 }));
  if (s.pattern) {
    const pattern = new RegExp(s.pattern);
    return fc.stringMatching(pattern, { size: 'xsmall' }).filter((text) => text.length >= (s.minLength ?? 0) && text.length <= (s.maxLength ?? Infinity));
  }
  return writtenText(s.minLength ?? 0, s.maxLength);
}

/**
 * Values one defect away from what the schema takes, at a place drawn at random however deep:
 * one field malformed, out of bounds or of the wrong type, a required one missing, or a key the
 * schema does not know.
 */
export function nearValue(schema: JsonSchema, sources: ValueSources, depth = 0): fc.Arbitrary<unknown> {
  const s = sources.resolve(schema);
  const wrongType = fc.constantFrom(...WRONG_TYPES);
  if (depth > 12) return wrongType;
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => nearValue(branch, sources, depth + 1)));
  const types = typesOf(s).filter((type) => type !== 'null');
  const near = s.enum || s.const !== undefined
    ? fc.oneof(fc.constantFrom('nope', 'NOPE', ''), fc.constantFrom(...(s.enum ?? [s.const])).map((value) => `${String(value)}\u0000`))
    : types.length === 1 ? nearOfType(types[0]!, { ...s, type: types[0] }, sources, depth) : null;
  return near ? fc.oneof({ weight: 8, arbitrary: near }, { weight: 1, arbitrary: wrongType }) : wrongType;
}

function nearOfType(type: string, s: JsonSchema, sources: ValueSources, depth: number): fc.Arbitrary<unknown> | null {
  switch (type) {
    case 'string': return nearString(s);
    case 'integer': return fc.constantFrom((s.minimum ?? 0) - 1, (s.maximum ?? 2 ** 53) + 1, 1.5, '7', -0, 2 ** 63);
    case 'number': return fc.constantFrom((s.minimum ?? 0) - 0.001, (s.maximum ?? 1e308) * 10, '0.5', -Infinity);
    case 'boolean': return fc.constantFrom('true', 1, 'yes');
    case 'array': {
      const item = s.items ?? {};
      const valid = validValue(s, sources, depth);
      const oneBad = fc.tuple(valid, nearValue(item, sources, depth + 1), fc.nat()).map(([items, bad, at]) => {
        const list = [...(items as unknown[])];
        list.splice(at % (list.length + 1), list.length ? 1 : 0, bad);
        return list;
      });
      const tooMany = s.maxItems === undefined ? null : fc.array(validValue(item, sources, depth + 1), { minLength: s.maxItems + 1, maxLength: s.maxItems + 1 });
      const tooFew = s.minItems ? fc.constant([]) : null;
      return fc.oneof(oneBad, ...[tooMany, tooFew].filter((arbitrary) => arbitrary !== null));
    }
    case 'object': return nearObject(s, sources, depth);
    default: return null;
  }
}

function nearString(s: JsonSchema): fc.Arbitrary<unknown> {
  if (s.format === 'uuid') return fc.oneof(fc.constantFrom('not-a-uuid', '00000000-0000-0000-0000-00000000000g', ''), fc.uuid().map((id) => `${id}\ud800`));
  if (s.format === 'uri') return fc.oneof(fc.constantFrom(...NEAR_URLS), nearText(0, s.maxLength).map((text) => `https://example.com/${text}`));
  if (s.format === 'binary') return fc.constantFrom(new Uint8Array(0), new Uint8Array(11 * 1024 * 1024));
  return nearText(s.minLength ?? 0, s.maxLength);
}

function nearObject(s: JsonSchema, sources: ValueSources, depth: number): fc.Arbitrary<unknown> {
  const valid = validValue(s, sources, depth) as fc.Arbitrary<Record<string, unknown>>;
  const names = Object.keys(s.properties ?? {});
  const required = (s.required ?? []).filter((name) => names.includes(name));
  const oneBad = names.length
    ? fc.constantFrom(...names).chain((name) => fc.tuple(valid, nearValue(s.properties![name]!, sources, depth + 1)).map(([object, bad]) => ({ ...object, [name]: bad })))
    : null;
  const missing = required.length ? fc.tuple(valid, fc.constantFrom(...required)).map(([object, name]) => withoutKey(object, name)) : null;
  const unknown = fc.tuple(valid, fc.constantFrom(...JUNK_KEYS), fc.jsonValue({ maxDepth: 1 })).map(([object, key, value]) => ({ ...object, [key]: value }));
  return fc.oneof(...[oneBad, missing, unknown].filter((arbitrary) => arbitrary !== null).map((arbitrary) => ({ weight: arbitrary === oneBad ? 6 : 1, arbitrary })));
}

function withoutKey(object: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _gone, ...rest } = object;
  return rest;
}
