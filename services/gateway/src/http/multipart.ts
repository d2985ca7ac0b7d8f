import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { Busboy } from '@fastify/busboy';
import { strictUtf8 } from './text.ts';

/**
 * A part of a multipart form, in the order sent. A text field's `value` is null when its bytes
 * are not UTF-8; a file's `bytes` are null when they were not kept.
 */
export type FormPart =
  | { kind: 'field'; name: string; value: string | null }
  | { kind: 'file'; name: string; filename: string; tooLarge: boolean; bytes: Buffer | null };

export type MultipartLimits = {
  /** The whole body; past it the reading stops. */
  maxBytes: number;
  /** A file's bytes past this are not read: the file is `tooLarge`. */
  maxFileBytes: number;
  /** The parts worth recording, by name: the others are read through and forgotten. */
  wanted: (name: string) => boolean;
  /** Whether to keep a wanted file's bytes, asked once per file in order (the others are counted only). */
  keep: (name: string) => boolean;
};

export type MultipartProblem = 'too_large' | 'too_many_parts' | 'unreadable';

/** Text fields are short; a longer one is cut here and then fails its own length check. */
const MAX_FIELD_BYTES = 64 * 1024;
/** A part's headers: a name, a file name and a type need far less than busboy's 80 KB. */
const MAX_HEADER_BYTES = 16 * 1024;
/** Ten images, six text fields, and room for fields a client adds that are not the API's. */
export const MAX_PARTS = 100;

/**
 * Reads a multipart/form-data body as it arrives, holding little more than the files it keeps:
 * the platform's `formData()` would first buffer the whole body (up to the route's limit) and then
 * copy every file out of it.
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array> | null,
  contentType: string,
  limits: MultipartLimits,
): Promise<{ ok: true; parts: FormPart[] } | { ok: false; problem: MultipartProblem }> {
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { fileSize: limits.maxFileBytes, headerSize: MAX_HEADER_BYTES, parts: MAX_PARTS },
      // Every part comes as its bytes, text fields too (told apart below): busboy would decode a
      // field's bytes that are not UTF-8 into U+FFFD unseen, and they are refused instead.
      isPartAFile: () => true,
    });
  } catch {
    return { ok: false, problem: 'unreadable' }; // no boundary
  }
  const parts: FormPart[] = [];
  let tooManyParts = false;
  parser.on('partsLimit', () => void (tooManyParts = true));
  // A part with a file name, or sent as application/octet-stream, is a file (busboy's own rule;
  // it gives the name as undefined then, whatever its types say); any other is a text field.
  parser.on('file', (name, stream, filename: string | undefined, _encoding: string, type: string) => {
    // A body that ends inside a file fails the parser, which says so below; the file's own stream
    // reports the same error, and unheard it would take the process down.
    stream.on('error', () => {});
    if (!limits.wanted(name)) return void stream.resume();
    if (filename === undefined && type !== 'application/octet-stream') return void parts.push(readField(name, stream));
    const part: FormPart & { kind: 'file' } = { kind: 'file', name, filename: filename ?? '', tooLarge: false, bytes: null };
    parts.push(part);
    if (!limits.keep(name)) return void stream.resume();
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => {
      part.tooLarge = true;
      chunks.splice(0);
    });
    stream.on('end', () => {
      if (!part.tooLarge) part.bytes = Buffer.concat(chunks);
    });
  });
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('finish', resolve);
    parser.on('error', reject);
  });
  finished.catch(() => {}); // awaited below; an error while the body is still being fed ends the feeding

  const reader = body?.getReader();
  let read = 0;
  try {
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const };
      if (chunk.done) break;
      read += chunk.value.length;
      // Past the limit, or past the parts counted: the rest is not read.
      if (read > limits.maxBytes || tooManyParts) {
        await reader?.cancel();
        parser.destroy();
        return { ok: false, problem: tooManyParts ? 'too_many_parts' : 'too_large' };
      }
      if (!parser.write(chunk.value)) await Promise.race([once(parser, 'drain'), finished]);
    }
    parser.end();
    await finished;
  } catch {
    await reader?.cancel().catch(() => {});
    parser.destroy();
    return { ok: false, problem: 'unreadable' };
  }
  return tooManyParts ? { ok: false, problem: 'too_many_parts' } : { ok: true, parts };
}

/** A text field, its value read once its part ends: UTF-8, or null; a longer one is cut, and fails its own length check. */
function readField(name: string, stream: Readable): FormPart & { kind: 'field' } {
  const part: FormPart & { kind: 'field' } = { kind: 'field', name, value: null };
  const chunks: Buffer[] = [];
  let kept = 0;
  stream.on('data', (chunk: Buffer) => {
    if (kept < MAX_FIELD_BYTES) chunks.push(chunk.subarray(0, MAX_FIELD_BYTES - kept));
    kept += chunk.length;
  });
  stream.on('end', () => {
    const bytes = Buffer.concat(chunks);
    // Cut at the limit, it may end mid-character: too long either way.
    part.value = kept > MAX_FIELD_BYTES ? bytes.toString('utf8') : strictUtf8(bytes);
  });
  return part;
}
