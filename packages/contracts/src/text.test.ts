import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CancelBody, CommentBody, CreateProductionBody, CreateRenderForm, CreateWebhookBody, DeclineBody, LinkCommentBody, LinkDeclineBody,
  LONE_SURROGATE_REFUSED, NUL_REFUSED, StorableText, UpdateWebhookBody,
} from './index.ts';

const REFUSED: [what: string, text: string, message: string][] = [
  ['a lone high surrogate', 'a\ud800b', LONE_SURROGATE_REFUSED],
  ['a lone low surrogate', 'a\udc00b', LONE_SURROGATE_REFUSED],
  ['a reversed pair', 'a\udc00\ud800b', LONE_SURROGATE_REFUSED],
  ['a high surrogate at the end', 'ab\ud83d', LONE_SURROGATE_REFUSED],
  ['NUL', 'a\u0000b', NUL_REFUSED],
];

const TAKEN: [what: string, text: string][] = [
  ['right-to-left marks and script', '\u200F\u05E9\u05DC\u05D5\u05DD\u200F \u202Bمرحبا\u202C'],
  ['combining marks', 'cafe\u0301 Z\u0351\u036B\u0343a\u0310l'],
  ['4-byte emoji and a ZWJ sequence', '😀 👩🏽‍💻 🇯🇵'],
  ['CJK', '漢字かな한국어'],
  ['other control characters, which PostgreSQL stores', 'tab\tline\nbell\u0007 \uFFFE \uFFFD'],
];

describe('StorableText: text PostgreSQL stores exactly as sent', () => {
  it.each(REFUSED)('refuses %s, saying why', (_what, text, message) => {
    expect(StorableText.safeParse(text).error?.issues).toEqual([expect.objectContaining({ code: 'custom', message, path: [] })]);
  });

  it.each(TAKEN)('takes %s as it is', (_what, text) => {
    expect(StorableText.parse(text)).toBe(text);
  });
});

/** Every request body (the renders form's text fields), as the routes validate them. */
const REQUESTS: Record<string, z.ZodType> = {
  CreateProductionBody, CommentBody, DeclineBody, CancelBody, LinkCommentBody, LinkDeclineBody, CreateWebhookBody, UpdateWebhookBody,
  CreateRenderForm: CreateRenderForm.omit({ images: true }),
};

type JsonSchema = {
  type?: string | string[]; enum?: unknown[]; const?: unknown; format?: string;
  properties?: Record<string, JsonSchema>; items?: JsonSchema; anyOf?: JsonSchema[]; $ref?: string;
};
type Path = (string | number)[];

/** Strings of a closed set (an enum, a UUID) refuse any other text with their own message. */
const closed = (schema: JsonSchema) => schema.enum !== undefined || schema.const !== undefined || schema.format === 'uuid';

/** The place of every free string a JSON Schema takes (an array's first item standing for its items). */
function stringPaths(schema: JsonSchema, defs: Record<string, JsonSchema>, at: Path = []): Path[] {
  if (schema.$ref) return stringPaths(defs[schema.$ref.split('/').at(-1)!]!, defs, at);
  const types = [schema.type ?? []].flat();
  return [
    ...(types.includes('string') && !closed(schema) ? [at] : []),
    ...Object.entries(schema.properties ?? {}).flatMap(([key, value]) => stringPaths(value, defs, [...at, key])),
    ...(schema.items ? stringPaths(schema.items, defs, [...at, 0]) : []),
    ...(schema.anyOf ?? []).flatMap((branch) => stringPaths(branch, defs, at)),
  ];
}

/** A value holding `leaf` at `path`, and nothing else. */
const holding = (path: Path, leaf: unknown): unknown =>
  path.reduceRight<unknown>((inner, key) => (typeof key === 'number' ? [inner] : { [key]: inner }), leaf);

describe('every string of every request schema', () => {
  it.each(Object.entries(REQUESTS))('is storable text in %s', (_name, schema) => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const paths = stringPaths(json, json.$defs ?? {});
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) {
      for (const [what, text, message] of REFUSED) {
        const issues = schema.safeParse(holding(path, text)).error?.issues ?? [];
        expect(issues.map((issue) => [issue.path.join('.'), issue.message]), `${what} at ${path.join('.')}`).toContainEqual([path.join('.'), message]);
      }
    }
  });
});
