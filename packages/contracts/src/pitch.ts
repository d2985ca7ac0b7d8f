import { z } from 'zod';

export const Shot = z
  .object({
    index: z.int().min(0),
    title: z.string().min(1).max(120),
    durationMs: z.int().min(500).max(60_000),
    beat: z.string().max(200).nullable().default(null),
    visual: z.string().min(1).max(2000),
    text: z.string().max(500).nullable().default(null),
    voiceover: z.string().max(1000).nullable().default(null),
    mediaIds: z.array(z.string()).default([]),
    codePaths: z.array(z.string()).default([]),
    /**
     * A still of the shot at its key moment, drawn by the renderer before greenlight (a signed
     * address); added without a version change, as the spec's Versioning allows. Absent until the
     * storyboard is drawn.
     */
    previewUrl: z.url().max(4000).optional(),
  })
  .meta({ id: 'Shot' });
export type Shot = z.infer<typeof Shot>;

export const Pitch = z
  .object({
    version: z.int().min(1),
    verdict: z.enum(['video', 'skip']).default('video'),
    verdictReason: z.string().max(1000).nullable().default(null),
    title: z.string().min(1).max(160),
    summary: z.string().min(1).max(2000),
    shots: z.array(Shot).min(1).max(24),
    music: z.string().max(500).nullable().default(null),
    estimatedCredits: z.int().min(0),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Pitch' });
export type Pitch = z.infer<typeof Pitch>;

/** A video costs 1 credit per started second of its length. */
export function creditsFor(durationMs: number): number {
  return Math.ceil(durationMs / 1000);
}

/** A voiceover line's words as they are counted against its time, lower-cased: "2.4" is two. */
export function spokenWords(text: string): string[] {
  return text.toLocaleLowerCase('en').match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The words a voiceover line can say in `seconds`: a brisk promo read runs about three words a
 * second. (The renderer speaks a longer line faster, and cuts what still does not fit.)
 */
export function voiceoverRoomWords(seconds: number): number {
  return Math.max(4, Math.floor(seconds * 3) + 1);
}
