import type { Context } from 'hono';
import { ApiError, CreateRenderForm, MAX_RENDER_IMAGE_BYTES, MAX_RENDER_IMAGES, NUL_REFUSED, type ErrorBody } from '@vp/contracts';
import { formatBytes } from '@vp/net';
import { normalizeColor } from '@vp/render/checks';
import { validationIssues } from '../http/errors.ts';
import { checkImage, type ImageType } from './images.ts';

export type RenderRequest = Omit<CreateRenderForm, 'images'> & { images: (ImageType & { bytes: Buffer })[] };
type Issues = NonNullable<ErrorBody['issues']>;

/** The form's text fields (`images` are files). */
const TEXT_FIELDS = new Set(Object.keys(CreateRenderForm.shape).filter((name) => name !== 'images'));

/**
 * A form past the route's body limit holds too many images or too large ones: a bad part of the
 * form, answered like the others (400 with `issues`), though the parts cannot be told apart unread.
 */
export const formTooLarge = (maxBytes: number) =>
  ApiError.invalid('images', `The form is larger than ${formatBytes(maxBytes)}: send 1 to ${MAX_RENDER_IMAGES} images of at most ${formatBytes(MAX_RENDER_IMAGE_BYTES)} each.`);

/**
 * Reads and checks the multipart body of POST /v1/renders against `CreateRenderForm`, then each
 * image by its bytes. Every problem is listed, so one answer tells the caller all it must fix.
 * The parser (the platform's `formData()`) reads the whole body at once, within the route's body
 * limit; with the wrong number of images, no image is opened.
 */
export async function readRenderRequest(c: Context): Promise<{ ok: true; request: RenderRequest } | { ok: false; issues: Issues }> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    return { ok: false, issues: [{ path: '', message: `Send the body as multipart/form-data (got ${type || 'no Content-Type'}).` }] };
  }
  let form: FormData;
  try {
    // The request's own parser, not Hono's cached one: the form must not outlive the reading (a
    // caller who waits for the video holds the request open for up to 90 s).
    form = await c.req.raw.formData();
  } catch {
    return { ok: false, issues: [{ path: '', message: 'The multipart body could not be read.' }] };
  }

  const fields = new Map<string, string>();
  const seen = new Set<string>();
  const files: unknown[] = [];
  const issues: Issues = [];
  for (const [name, value] of form) {
    if (name === 'images' || name === 'images[]') files.push(value);
    else if (!TEXT_FIELDS.has(name)) continue; // not a field of the API: ignored, whatever it holds
    else if (seen.has(name)) issues.push({ path: name, message: 'Given more than once.' });
    else if (typeof value === 'string') {
      if (value.includes('\0')) issues.push({ path: name, message: NUL_REFUSED });
      fields.set(name, value);
    }
    else issues.push({ path: name, message: 'Send this as a text field, not a file.' });
    seen.add(name);
  }

  const parsed = CreateRenderForm.safeParse({ ...Object.fromEntries(fields), images: files });
  if (!parsed.success) issues.push(...(validationIssues(parsed.error) ?? []));
  // A colour as the renderer reads it (its own parser), so what is accepted here is what it draws.
  const accent = fields.get('accent')?.trim();
  if (accent && !issues.some((issue) => issue.path === 'accent') && !normalizeColor(accent)) {
    issues.push({ path: 'accent', message: 'Is not a CSS colour (such as #ff5a36, rgb(255 90 54) or tomato).' });
  }
  const images: RenderRequest['images'] = [];
  // The wrong number of images is the answer already: none is read.
  const counted = files.length >= 1 && files.length <= MAX_RENDER_IMAGES;
  for (const [i, image] of (counted ? files : []).entries()) {
    if (!(image instanceof File) || image.size > MAX_RENDER_IMAGE_BYTES || image.size === 0) {
      if (image instanceof File && image.size === 0) issues.push({ path: `images.${i}`, message: 'Is empty.' });
      continue;
    }
    const bytes = Buffer.from(await image.arrayBuffer());
    const checked = checkImage(bytes);
    if (!checked.ok) issues.push({ path: `images.${i}`, message: `${image.name ? `'${image.name}' ` : ''}${checked.problem}.` });
    else images.push({ ...checked.type, bytes });
  }
  if (issues.length || !parsed.success) return { ok: false, issues };
  return { ok: true, request: { ...parsed.data, images } };
}
