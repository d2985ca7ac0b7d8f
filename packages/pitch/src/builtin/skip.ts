import { creditsFor, type Brief, type Pitch } from '@vp/contracts';
import { noiseOf, type Noise } from '../code-changes.ts';
import { clip, line, listing, oneLine } from '../text.ts';
import { shotCountRange, splitDuration } from '../timing.ts';

const NOISE_NAMES: Record<Noise, string> = { lockfile: 'lockfiles', generated: 'generated files', whitespace: 'whitespace-only edits' };

/**
 * Why the brief is not worth a video, or null when it is: every code change is one a viewer
 * would never notice, and there are no media and no context to show instead.
 */
export function skipReason(brief: Brief): string | null {
  if (brief.code.length === 0 || brief.media.length > 0 || brief.context?.trim()) return null;
  const groups = new Map<Noise, string[]>();
  for (const file of brief.code) {
    const noise = noiseOf(file);
    if (noise === null) return null;
    groups.set(noise, [...(groups.get(noise) ?? []), file.path]);
  }
  const kinds = [...groups].map(([noise, paths]) => `${NOISE_NAMES[noise]} (${paths.slice(0, 3).map((p) => clip(oneLine(p), 60)).join(', ')}${paths.length > 3 ? ', …' : ''})`);
  return clip(`The code changes are only ${listing(kinds)}, and the brief has no media and no context: nothing a viewer would notice.`, 1000);
}

/** A skipped pitch is stored like any other, so it stays schema-valid with the fewest shots possible. */
export function skipPitch(brief: Brief, version: number, reason: string, createdAt: string): Pitch {
  const { durationMs } = brief.format;
  const durations = splitDuration(durationMs, Array.from({ length: shotCountRange(durationMs).min }, () => 1));
  return {
    version,
    verdict: 'skip',
    verdictReason: reason,
    title: line(brief.brand.name ? `No video needed for ${brief.brand.name}` : 'No video needed', 160, 'No video needed'),
    summary: clip(`No video is planned. ${reason} Push a brief with real changes, media or context to get a pitch.`, 2000),
    shots: durations.map((ms, index) => ({
      index,
      title: 'Nothing to show',
      durationMs: ms,
      beat: null,
      visual: 'No video is planned: the brief only touches files a viewer would not notice.',
      text: null,
      voiceover: null,
      mediaIds: [],
      codePaths: index === 0 ? brief.code.map((c) => c.path) : [],
    })),
    music: null,
    estimatedCredits: creditsFor(durationMs),
    createdAt,
  };
}
