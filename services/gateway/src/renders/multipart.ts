import { once } from 'node:events';
import { Busboy } from '@fastify/busboy';

/** A part of a multipart form, in the order sent. A file's `bytes` are null when they were not kept. */
export type FormPart =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; size: number; tooLarge: boolean; bytes: Buffer | null };

export type MultipartLimits = {
  /** The whole body; past it the reading stops. */
  maxBytes: number;
  /** A file's bytes past this are not read: the file is `tooLarge`. */
  maxFileBytes: number;
  /** Whether to keep a file's bytes (the others are read through and counted). */
  keep: (field: string, filesBefore: number) => boolean;
};

/** Text fields are short; a longer one is cut here and then fails its own length check. */
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Reads a multipart/form-data body as it arrives, holding no more than the files it keeps: the
 * platform's `formData()` would first buffer the whole body (up to the route's limit) and then
 * copy every file out of it.
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array> | null,
  contentType: string,
  limits: MultipartLimits,
): Promise<{ ok: true; parts: FormPart[] } | { ok: false; problem: 'too_large' | 'unreadable' }> {
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({ headers: { 'content-type': contentType }, limits: { fileSize: limits.maxFileBytes, fieldSize: MAX_FIELD_BYTES } });
  } catch {
    return { ok: false, problem: 'unreadable' }; // no boundary
  }
  const parts: FormPart[] = [];
  let files = 0;
  parser.on('field', (name, value) => parts.push({ kind: 'field', name, value }));
  parser.on('file', (name, stream, filename) => {
    const part: FormPart & { kind: 'file' } = { kind: 'file', name, filename, size: 0, tooLarge: false, bytes: null };
    parts.push(part);
    const chunks: Buffer[] | null = limits.keep(name, files++) ? [] : null;
    stream.on('data', (chunk: Buffer) => {
      part.size += chunk.length;
      chunks?.push(chunk);
    });
    stream.on('limit', () => {
      part.tooLarge = true;
      chunks?.splice(0);
    });
    stream.on('end', () => {
      if (chunks && !part.tooLarge) part.bytes = Buffer.concat(chunks);
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
      if (read > limits.maxBytes) {
        await reader?.cancel();
        parser.destroy();
        return { ok: false, problem: 'too_large' };
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
  return { ok: true, parts };
}
