import { z } from 'zod';
import { StorableText } from './text.ts';

/**
 * DECISIONS (Renders): 1 to 10 images, PNG, JPEG or WebP by their bytes, at most 10 MB each (and,
 * checked by the gateway with the renderer's own reader, whole and at most 60 million pixels).
 */
export const MAX_RENDER_IMAGES = 10;
export const MAX_RENDER_IMAGE_BYTES = 10 * 1024 * 1024;
/** How long a signed `videoUrl` works. */
export const RENDER_VIDEO_URL_TTL_MS = 24 * 60 * 60 * 1000;

export const RENDER_RESOLUTIONS = ['480p', '720p', '1080p', '4K'] as const;
export const RenderResolution = z.enum(RENDER_RESOLUTIONS).meta({ id: 'RenderResolution' });
export type RenderResolution = z.infer<typeof RenderResolution>;

export const RENDER_STATUSES = ['queued', 'rendering', 'done', 'failed'] as const;
export const RenderStatus = z.enum(RENDER_STATUSES).meta({ id: 'RenderStatus' });
export type RenderStatus = z.infer<typeof RenderStatus>;

export const Render = z
  .object({
    id: z.uuid(),
    status: RenderStatus,
    progress: z.number().min(0).max(1),
    projectId: z.uuid().nullable().meta({ description: 'The editable project the render farm made; null until it exists (and for a render that never started).' }),
    resolution: RenderResolution,
    error: z.string().nullable().meta({ description: 'Why it failed, in words a person can read.' }),
    videoUrl: z.url().optional().meta({ description: 'A signed address of the MP4, valid 24 hours; present when done.' }),
  })
  .meta({ id: 'Render' });
export type Render = z.infer<typeof Render>;

const ImageFile = z
  .file()
  .max(MAX_RENDER_IMAGE_BYTES, 'is larger than 10 MB')
  .meta({ type: 'string', format: 'binary', description: 'A PNG, JPEG or WebP image (checked by its bytes and header: whole, at most 60 million pixels), at most 10 MB.' });

/** The multipart/form-data body of POST /v1/renders; repeat `images` once per file. */
export const CreateRenderForm = z
  .object({
    images: z.array(ImageFile).min(1, 'send 1 to 10 images').max(MAX_RENDER_IMAGES, 'send 1 to 10 images'),
    resolution: RenderResolution.default('1080p'),
    background: z.enum(['black', 'white']).default('black'),
    appName: StorableText.trim().max(120).optional().meta({ description: 'Shown on the title and end cards.' }),
    accent: StorableText.trim().max(32).optional().meta({ description: 'A CSS colour for the accent, e.g. `#ff5a36`, `rgb(255 90 54)` or `tomato`; anything else is a 400.' }),
    wait: z.enum(['true', 'false']).default('true').meta({ description: 'Hold the request until the video is ready (up to 90 s, then 202).' }),
  })
  .meta({ id: 'CreateRenderForm' });
export type CreateRenderForm = z.infer<typeof CreateRenderForm>;
