import type { Context } from 'hono';
import { ApiError, CreateRenderForm, MAX_RENDER_IMAGE_BYTES, MAX_RENDER_IMAGES, NOT_UTF8, type ErrorBody } from '@vp/contracts';
import { formatBytes } from '@vp/net';
import { normalizeColor } from '@vp/render/checks';
import { validationIssues } from '../http/errors.ts';
import { checkImage, type ImageType } from './images.ts';
import { MAX_PARTS, readMultipart, type FormPart } from '../http/multipart.ts';

export type RenderRequest = Omit<CreateRenderForm, 'images'> & { images: (ImageType & { bytes: Buffer })[] };
type Issues = NonNullable<ErrorBody['issues']>;

/** The form's text fields; `images` are files. */
const TextFields = CreateRenderForm.omit({ images: true });
const TEXT_FIELDS = new Set(Object.keys(TextFields.shape));
const IMAGE_FIELDS = new Set(['images', 'images[]']);

/**
 * Reads and checks the multipart body of POST /v1/renders against `CreateRenderForm`, then each
 * image by its bytes. Every problem is listed, so one answer tells the caller all it must fix.
 * The body is read as it streams, within the route's body limit (`maxBytes`): only the images'
 * bytes are held, and with the wrong number of images no image is opened.
 */
export async function readRenderRequest(c: Context, maxBytes: number): Promise<{ ok: true; request: RenderRequest } | { ok: false; issues: Issues }> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    return { ok: false, issues: [{ path: '', message: `Send the body as multipart/form-data (got ${type || 'no Content-Type'}).` }] };
  }
  // A body announced too large is refused unread; the rest of it may still be arriving.
  if (Number(c.req.header('content-length') ?? 0) > maxBytes) throw tooLarge(maxBytes);
  let imagesKept = 0;
  const read = await readMultipart(c.req.raw.body, type, {
    maxBytes,
    maxFileBytes: MAX_RENDER_IMAGE_BYTES,
    // Fields that are not the API's are ignored, whatever they hold.
    wanted: (name) => IMAGE_FIELDS.has(name) || TEXT_FIELDS.has(name),
    keep: (name) => IMAGE_FIELDS.has(name) && imagesKept++ < MAX_RENDER_IMAGES,
  });
  if (!read.ok && read.problem === 'too_large') throw tooLarge(maxBytes);
  if (!read.ok) {
    // What was not read of the body may still be arriving: not on this connection.
    c.header('Connection', 'close');
    const message = read.problem === 'too_many_parts' ? `The form has more than ${MAX_PARTS} parts.` : 'The multipart body could not be read.';
    return { ok: false, issues: [{ path: '', message }] };
  }

  const fields = new Map<string, string>();
  const seen = new Set<string>();
  const repeated = new Set<string>();
  const files: FormPart[] = [];
  const issues: Issues = [];
  for (const part of read.parts) {
    const { name } = part;
    if (IMAGE_FIELDS.has(name)) files.push(part);
    else if (seen.has(name)) {
      if (!repeated.has(name)) issues.push({ path: name, message: 'Given more than once.' });
      repeated.add(name);
    }
    else if (part.kind === 'field') {
      if (part.value === null) issues.push({ path: name, message: NOT_UTF8 });
      else fields.set(name, part.value);
    }
    else issues.push({ path: name, message: 'Send this as a text field, not a file.' });
    seen.add(name);
  }

  // The wrong number of images is the answer already: none is read.
  const counted = files.length >= 1 && files.length <= MAX_RENDER_IMAGES;
  if (!counted) issues.push({ path: 'images', message: `Send 1 to ${MAX_RENDER_IMAGES} images.` });
  const images: RenderRequest['images'] = [];
  for (const [i, file] of (counted ? files : []).entries()) {
    const path = `images.${i}`;
    if (file.kind === 'field') issues.push({ path, message: 'Send each image as a file, not as text.' });
    else if (file.tooLarge) issues.push({ path, message: problem(file, `is larger than ${formatBytes(MAX_RENDER_IMAGE_BYTES)}.`) });
    else if (!file.bytes?.length) issues.push({ path, message: problem(file, 'is empty.') });
  }
  const parsed = TextFields.safeParse(Object.fromEntries(fields));
  if (!parsed.success) issues.push(...(validationIssues(parsed.error) ?? []));
  // A colour as the renderer reads it (its own parser), so what is accepted here is what it draws.
  const accent = fields.get('accent')?.trim();
  if (accent && !issues.some((issue) => issue.path === 'accent') && !normalizeColor(accent)) {
    issues.push({ path: 'accent', message: 'Is not a CSS colour (such as #ff5a36, rgb(255 90 54) or tomato).' });
  }
  for (const [i, file] of (counted ? files : []).entries()) {
    if (file.kind !== 'file' || !file.bytes?.length) continue;
    const checked = checkImage(file.bytes);
    if (!checked.ok) issues.push({ path: `images.${i}`, message: problem(file, `${checked.problem}.`) });
    else images.push({ ...checked.type, bytes: file.bytes });
  }
  if (issues.length || !parsed.success) return { ok: false, issues };
  return { ok: true, request: { ...parsed.data, images } };
}

/** A problem with a file, begun with its name as the caller sent it (at most 100 characters of it), if it has one. */
function problem(file: { filename: string }, what: string): string {
  const characters = Array.from(file.filename);
  if (!characters.length) return what.charAt(0).toUpperCase() + what.slice(1);
  return `'${characters.length > 100 ? `${characters.slice(0, 99).join('')}…` : file.filename}' ${what}`;
}

/**
 * A form past the route's body limit holds too many images or too large ones: a bad part of the
 * form, answered like the others (400 with `issues`), though the parts cannot be told apart
 * unread. The rest of the body may still be arriving: the connection is closed.
 */
function tooLarge(maxBytes: number): ApiError {
  const message = `The form is larger than ${formatBytes(maxBytes)}: send 1 to ${MAX_RENDER_IMAGES} images of at most ${formatBytes(MAX_RENDER_IMAGE_BYTES)} each.`;
  return new ApiError(400, message, undefined, { Connection: 'close' }, [{ path: 'images', message }]);
}
