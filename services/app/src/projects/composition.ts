import { MAX_EXPORTS_UNDER_WAY, type DeliveredProject } from '@vp/projects';
import type { Music } from '@vp/render/edit';

/** The stored composition, read loosely: the pages show what they find. */
export type StoredComposition = {
  width?: number; height?: number; durationMs?: number;
  brand?: { primaryColor?: string; backgroundColor?: string };
  media?: { kind?: string; url?: string; name?: string }[];
  scenes?: { id?: string; kind?: string; title?: string | null; text?: string | null; durationMs?: number; transition?: { kind?: string; durationMs?: number } }[];
  audio?: {
    voiceover?: { sceneId?: string; text?: string; voice?: string; wordsPerMinute?: number }[]; sfx?: unknown[];
    music?: { key?: string; bpm?: number; progression?: string[]; gainDb?: number } | null;
  };
};

type Version = DeliveredProject['versions'][number];

export const stored = (version: Version) => version.composition as StoredComposition;
/** A composition as the database gives it back: JSON keeps no -0, for one. */
export const asStored = (composition: unknown): unknown => JSON.parse(JSON.stringify(composition));

/**
 * What an edit of this project may do, from its version 1 (what its credits paid for and its
 * format asked for): last no longer than it did, keep sound effects on the transitions when it
 * had them, speak new lines in its voice when it had one, switch its music bed off and on again.
 */
export function editRules(found: DeliveredProject) {
  const first = stored(found.versions.at(-1)!);
  const line = first.audio?.voiceover?.[0];
  return {
    maxDurationMs: first.durationMs ?? 0,
    soundEffects: (first.audio?.sfx?.length ?? 0) > 0,
    voice: line?.voice && line.wordsPerMinute ? { voice: line.voice, wordsPerMinute: line.wordsPerMinute } : null,
    // Saved valid, as every version.
    music: (first.audio?.music ?? null) as Music | null,
  };
}

/** Why an edit or re-export was refused while the project's exports are under way. */
export const exportsBusy = (notDone: string) =>
  `This project has ${MAX_EXPORTS_UNDER_WAY} exports under way, as many as it may have at once. ${notDone} once one of them is done.`;
