import { NOT_UTF8, type ValidationIssue } from '@vp/contracts';

// A leading byte order mark is dropped, as `Response.text()` drops it.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as UTF-8 text; null when they are not UTF-8 (a lone surrogate's bytes, a cut sequence, Latin-1). */
export function strictUtf8(bytes: ArrayBuffer | Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The `name=value&…` pairs of a query string or urlencoded form whose escapes are not
 * percent-encoded UTF-8, as issues naming each. The platform's readers would keep such a value
 * as sent (Hono's query) or change it into U+FFFD (a form): text nobody wrote, either way.
 */
export function malformedPairs(encoded: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const pair of encoded.split('&')) {
    const split = pair.indexOf('=');
    const [name, value] = split < 0 ? [pair, ''] : [pair.slice(0, split), pair.slice(split + 1)];
    const decodedName = percentDecoded(name);
    if (decodedName === null || percentDecoded(value) === null) issues.push({ path: decodedName ?? name, message: NOT_UTF8 });
  }
  return issues;
}

/** As a query string or form is read (`+` is a space); null when its escapes are not UTF-8 (or not escapes). */
function percentDecoded(text: string): string | null {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return null;
  }
}
