import type { Context } from 'hono';
import { ApiError, NOT_UTF8, type ValidationIssue } from '@vp/contracts';
import { hasBody } from './body.ts';
import { readMultipart } from './multipart.ts';
import { malformedPairs, strictUtf8 } from './text.ts';

const FORM_TYPE = /^(?:(application\/x-www-form-urlencoded)|multipart\/form-data)\s*(?:;|$)/i;

/**
 * A browser's form, urlencoded or multipart, as Hono reads it (`dot` nests `scenes.2.title`),
 * once every field is known to be UTF-8: the pages are, so their forms are, and the platform's
 * reader would change other bytes into U+FFFD unseen. A POST without a body is an empty form.
 * Throws 415 for a body of another type, and 400 with `issues` for a form that cannot be read
 * or a field that is not UTF-8 (the body limit's 413 passes through).
 */
export async function readForm(c: Context, options: { dot?: boolean } = {}): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  const form = FORM_TYPE.exec(type);
  if (!form) {
    if (!hasBody(c.req.raw)) return {};
    throw new ApiError(415, `Send the form as application/x-www-form-urlencoded or multipart/form-data (got ${type || 'no Content-Type'}).`, 'unsupported_media_type');
  }
  // Read once: Hono's own reading below takes the same bytes.
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  const issues = form[1] ? urlencodedIssues(bytes) : await multipartIssues(bytes, type);
  if (issues === null) throw unreadable();
  if (issues.length) throw new ApiError(400, `Invalid form: ${issues[0]!.path}: ${issues[0]!.message}`, undefined, {}, issues);
  try {
    return await c.req.parseBody(options);
  } catch {
    throw unreadable();
  }
}

const unreadable = () => ApiError.invalid('', 'The form could not be read.');

function urlencodedIssues(bytes: Uint8Array): ValidationIssue[] {
  const text = strictUtf8(bytes);
  return text === null ? [{ path: '', message: NOT_UTF8 }] : malformedPairs(text);
}

/** Null when the body is no multipart form (no boundary, cut short). */
async function multipartIssues(bytes: Uint8Array, type: string): Promise<ValidationIssue[] | null> {
  const read = await readMultipart(new Blob([bytes]).stream(), type, {
    maxBytes: bytes.length, maxFileBytes: bytes.length, wanted: () => true, keep: () => false,
  });
  if (!read.ok) return null;
  return read.parts.filter((part) => part.kind === 'field' && part.value === null).map((part) => ({ path: part.name, message: NOT_UTF8 }));
}
