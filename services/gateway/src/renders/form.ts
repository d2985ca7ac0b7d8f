import type { Context } from 'hono';
import { CreateRenderForm, MAX_RENDER_IMAGE_BYTES, type ErrorBody } from '@vp/contracts';
import { validationIssues } from '../http/errors.ts';
import { sniffImage, type ImageType } from './images.ts';

export type RenderRequest = Omit<CreateRenderForm, 'images'> & { images: (ImageType & { bytes: Buffer })[] };
type Issues = NonNullable<ErrorBody['issues']>;

/**
 * Reads and checks the multipart body of POST /v1/renders against `CreateRenderForm`, then each
 * image by its bytes. Every problem is listed, so one answer tells the caller all it must fix.
 */
export async function readRenderRequest(c: Context): Promise<{ ok: true; request: RenderRequest } | { ok: false; issues: Issues }> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    return { ok: false, issues: [{ path: '', message: `Send the body as multipart/form-data (got ${type || 'no Content-Type'}).` }] };
  }
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    return { ok: false, issues: [{ path: '', message: 'The multipart body could not be read.' }] };
  }

  const fields: Record<string, unknown> = { images: [] };
  const issues: Issues = [];
  for (const [name, value] of form) {
    if (name === 'images' || name === 'images[]') (fields.images as unknown[]).push(value);
    else if (name in fields) issues.push({ path: name, message: 'Given more than once.' });
    else if (typeof value === 'string') fields[name] = value;
  }

  const parsed = CreateRenderForm.safeParse(fields);
  if (!parsed.success) issues.push(...(validationIssues(parsed.error) ?? []));
  const images: RenderRequest['images'] = [];
  for (const [i, image] of (fields.images as unknown[]).entries()) {
    if (!(image instanceof File) || image.size > MAX_RENDER_IMAGE_BYTES || image.size === 0) {
      if (image instanceof File && image.size === 0) issues.push({ path: `images.${i}`, message: 'Is empty.' });
      continue;
    }
    const bytes = Buffer.from(await image.arrayBuffer());
    const kind = sniffImage(bytes);
    if (!kind) issues.push({ path: `images.${i}`, message: `${image.name ? `'${image.name}' ` : ''}is not a PNG, JPEG or WebP image.` });
    else images.push({ ...kind, bytes });
  }
  if (issues.length || !parsed.success) return { ok: false, issues };
  return { ok: true, request: { ...parsed.data, images } };
}
