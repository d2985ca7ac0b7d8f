import { z } from 'zod';

/** Why text holding U+0000 is refused: PostgreSQL stores no NUL, and no brief, comment or name means one. */
export const NUL_REFUSED = 'Text may not contain the NUL character (U+0000).';

/**
 * Why text holding half a UTF-16 surrogate pair is refused: UTF-8 has no bytes for one, so jsonb
 * refuses it and a text column would keep U+FFFD instead. JSON's `\ud800` escapes can carry one.
 */
export const LONE_SURROGATE_REFUSED = 'Text must be well-formed Unicode: it holds half of a UTF-16 surrogate pair (U+D800 to U+DFFF) without the other.';

/** Why bytes sent as text were refused: they are not UTF-8 (a form or query string, percent-decoded). */
export const NOT_UTF8 = 'Is not UTF-8 text.';

// With the `u` flag, \p{Cs} matches a surrogate only where it is not half of a pair.
const UNSTORABLE = /[\0\p{Cs}]/u;

/**
 * Why PostgreSQL could not store `text` as it is, in a text column or in jsonb; null when it can.
 * Neither NUL nor a lone surrogate is anything a person wrote: such text is refused where it
 * comes in, rather than stored changed or failing a production's step again and again.
 */
export function unstorableText(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (!found) return null;
  return found[0] === '\0' ? NUL_REFUSED : LONE_SURROGATE_REFUSED;
}

/** The check of storable text, for any string schema (a url's too). */
export function storable(ctx: z.core.ParsePayload<string>): void {
  const problem = unstorableText(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
}

/**
 * Every string a request carries (bodies, forms, query strings, path parameters): text
 * PostgreSQL stores exactly as sent. Chain bounds and transforms after it as on `z.string()`.
 */
export const StorableText = z.string().check(storable);
