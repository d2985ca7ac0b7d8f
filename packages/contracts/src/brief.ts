import { z } from 'zod';
import { storable, StorableText } from './text.ts';

/** An address on the web: media are fetched from it, apps link to it; `javascript:` and the like are refused. */
const WebUrl = z.url({
  protocol: /^https?$/,
  // Only for the address's form: a length check keeps its own message.
  error: (issue) => (issue.code === 'invalid_format' ? 'Must be an http or https address.' : undefined),
}).check(storable);

/** The longest media or logo address taken: a signed storage URL with its token fits; the project stores it. */
export const MEDIA_URL_MAX_LENGTH = 4000;

/** Display-only description of where a production came from; the service never calls the provider. */
export const Origin = z
  .object({
    provider: StorableText.min(1).max(40).regex(/^[a-z0-9][a-z0-9-]*$/),
    label: StorableText.min(1).max(200),
    url: WebUrl.max(2000).nullable().default(null),
    ref: StorableText.max(200).nullable().default(null),
    requestedBy: StorableText.max(120).nullable().default(null),
  })
  .meta({ id: 'Origin' });
export type Origin = z.infer<typeof Origin>;

export const MediaItem = z
  .object({
    id: StorableText.min(1).max(80),
    kind: z.enum(['image', 'video']),
    url: WebUrl.max(MEDIA_URL_MAX_LENGTH),
    name: StorableText.min(1).max(200),
    description: StorableText.max(500).nullable().default(null),
  })
  .meta({ id: 'MediaItem' });
export type MediaItem = z.infer<typeof MediaItem>;

export const CodeFile = z
  .object({
    path: StorableText.min(1).max(500),
    source: StorableText.max(200_000),
    status: z.enum(['added', 'modified', 'removed', 'renamed']).nullable().default(null),
    additions: z.int().min(0).default(0),
    deletions: z.int().min(0).default(0),
    patch: StorableText.max(20_000).nullable().default(null),
    digest: StorableText.max(1500).nullable().default(null),
    score: z.number().min(0).max(1).default(0),
    sourceOmitted: z.boolean().default(false),
  })
  .meta({ id: 'CodeFile' });
export type CodeFile = z.infer<typeof CodeFile>;

export const TEMPLATES = ['changelog', 'launch', 'feature', 'digest', 'custom'] as const;
export const ASPECTS = ['16:9', '4:3', '3:2', '21:9', '1:1', '9:16', '3:4', '2:3', '4:5'] as const;
export type Aspect = (typeof ASPECTS)[number];

export const Sound = z
  .object({
    voiceover: z.boolean().default(true),
    music: z.boolean().default(true),
    sfx: z.boolean().default(true),
  })
  .meta({ id: 'Sound' });

export const Format = z
  .object({
    template: z.enum(TEMPLATES).default('changelog'),
    durationMs: z.int().min(5000).max(120_000).default(10_000),
    aspect: z.enum(ASPECTS).default('16:9'),
    sound: Sound.prefault({}),
  })
  .meta({ id: 'Format' });
export type Format = z.infer<typeof Format>;

export const Brand = z
  .object({
    name: StorableText.max(120).nullable().default(null),
    logoUrl: WebUrl.max(MEDIA_URL_MAX_LENGTH).nullable().default(null),
    primaryColor: StorableText.max(32).nullable().default(null),
    backgroundColor: StorableText.max(32).nullable().default(null),
    fontFamily: StorableText.max(120).nullable().default(null),
    tone: StorableText.max(300).nullable().default(null),
  })
  .meta({ id: 'Brand' });
export type Brand = z.infer<typeof Brand>;

export const Brief = z
  .object({
    intent: StorableText.min(1).max(2000),
    context: StorableText.max(60_000).nullable().default(null),
    media: z.array(MediaItem).max(20).default([]),
    code: z.array(CodeFile).max(40).default([]),
    format: Format.prefault({}),
    brand: Brand.prefault({}),
  })
  .meta({ id: 'Brief' });
export type Brief = z.infer<typeof Brief>;
export type BriefInput = z.input<typeof Brief>;

/** Lists and webhook payloads carry code paths, digests and scores, never the sources. */
export function omitCodeSources(brief: Brief): Brief {
  return { ...brief, code: brief.code.map((file) => ({ ...file, source: '', patch: null, sourceOmitted: true })) };
}
