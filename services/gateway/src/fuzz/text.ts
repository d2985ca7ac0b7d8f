import fc from 'fast-check';

/** Text people do write, which code that counts bytes, characters or directions gets wrong. */
const WRITTEN = [
  '\u200F', '\u200E', '\u202E', '\u2067', '\u061C', 'שלום', 'مرحبا', // right-to-left marks, overrides and script
  'e\u0301', 'Z\u0351\u036B\u0343a\u0310l\u0358g', '\u0627\u064E', // combining marks
  '😀', '👩🏽‍💻', '🇯🇵', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '𐍈', // 4-byte characters, a ZWJ sequence, a flag
  '漢字', 'かな', '한국어', '\u3000', // CJK, an ideographic space
  '\t', '\n', '\r\n', ' ', '\uFEFF', '\uFFFD', '<b>&amp;</b>', '"\'\\', '%00', '${x}', '../', // what escapes and parsers trip on
];

/** Code units no text holds: half a surrogate pair (high, low, reversed) and NUL. */
export const MALFORMED = ['\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800', '\u0000'];

/** A mebibyte of text (as UTF-8): 4-byte emoji, or plain letters. */
const MEBIBYTE = ['😀'.repeat(1 << 18), 'x'.repeat(1 << 20)];

/** Cuts `text` to at most `max` code units without splitting a surrogate pair, and pads it to `min`. */
function fit(text: string, min: number, max: number): string {
  let cut = text.length > max ? text.slice(0, max) : text;
  if (/[\ud800-\udbff]$/.test(cut) && cut.length < text.length) cut = cut.slice(0, -1);
  return cut.length >= min ? cut : cut + 'x'.repeat(min - cut.length);
}

/** Well-formed text of `min` to `max` UTF-16 code units (as JSON Schema and zod count them), often at a bound. */
export function writtenText(min = 0, max?: number): fc.Arbitrary<string> {
  const most = max ?? min + 200;
  const piece = fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 2, arbitrary: fc.constantFrom(...WRITTEN) });
  const free = fc.array(piece, { maxLength: 12 }).map((pieces) => fit(pieces.join(''), min, most));
  if (most > 10_000) return free;
  const bound = fc.tuple(fc.constantFrom(min, Math.min(most, min + 1), most), piece)
    .map(([length, filler]) => fit((filler || 'x').repeat(length + 1), length, length));
  return fc.oneof({ weight: 5, arbitrary: free }, { weight: 1, arbitrary: bound });
}

/** Text that is near what a field takes but not it: a malformed unit inside, one unit too long or short, or a mebibyte. */
export function nearText(min = 0, max?: number): fc.Arbitrary<string> {
  const malformed = fc.tuple(writtenText(min, max), fc.constantFrom(...MALFORMED), fc.nat()).map(([text, unit, at]) => {
    const characters = Array.from(text);
    const place = characters.slice(0, at % (characters.length + 1)).join('').length;
    return text.slice(0, place) + unit + text.slice(place);
  });
  return fc.oneof(
    { weight: 6, arbitrary: malformed },
    ...(max === undefined ? [] : [{ weight: 2, arbitrary: fc.constant('x'.repeat(max + 1)) }]),
    ...(min > 0 ? [{ weight: 1, arbitrary: fc.constant('x'.repeat(min - 1)) }] : []),
    { weight: 1, arbitrary: fc.constantFrom(...MEBIBYTE) },
  );
}

/**
 * Text as bytes, lone surrogates included: WTF-8 encodes each as the three bytes UTF-8 would give
 * its code point (CESU), which are not UTF-8. A form or a query string can carry only bytes.
 */
export function wtf8(text: string): Buffer {
  const parts: Buffer[] = [];
  let run = '';
  for (const unit of text.match(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g) ?? []) {
    if (unit.length === 1 && /[\ud800-\udfff]/.test(unit)) {
      parts.push(Buffer.from(run, 'utf8'));
      run = '';
      const code = unit.charCodeAt(0);
      parts.push(Buffer.from([0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]));
    } else run += unit;
  }
  parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/** Percent-encoded as a query string or path segment carries it, from its WTF-8 bytes. */
export function percentEncoded(text: string): string {
  return [...wtf8(text)].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}
