import { once } from 'node:events';
import { Busboy } from '@fastify/busboy';

/** A part of a multipart form, in the order sent. A file's `bytes` are null when they were not kept. */
export type FormPart =
  | { kind: 'field'; name: string; value: string }
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
      limits: { fileSize: limits.maxFileBytes, fieldSize: MAX_FIELD_BYTES, headerSize: MAX_HEADER_BYTES, parts: MAX_PARTS },
    });
  } catch {
    return { ok: false, problem: 'unreadable' }; // no boundary
  }
  const parts: FormPart[] = [];
  let tooManyParts = false;
  parser.on('partsLimit', () => void (tooManyParts = true));
  parser.on('field', (name, value) => {
    if (limits.wanted(name)) parts.push({ kind: 'field', name, value });
  });
  // A part sent as application/octet-stream is a file even without a filename, which busboy then
  // gives as undefined, whatever its types say.
  parser.on('file', (name, stream, filename: string | undefined) => {
    // A body that ends inside a file fails the parser, which says so below; the file's own stream
    // reports the same error, and unheard it would take the process down.
    stream.on('error', () => {});
    if (!limits.wanted(name)) return void stream.resume();
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
