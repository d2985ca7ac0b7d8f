import { creditsFor, voiceoverRoomWords, type Pitch, type Shot } from '@vp/contracts';
import { foldDirectives, readComment, type Directives } from '../directives.ts';
import { articleForNumber, clip, line, optionalLine, speakable, words } from '../text.ts';
import { shotCountRange, splitDuration } from '../timing.ts';
import type { PitchWriter, WriteInput } from '../writer.ts';
import { attachMedia, ensureCount, fit, spotlight } from './arrange.ts';
import { revisionNote } from './revision.ts';
import type { Scene } from './scene.ts';
import { skipPitch, skipReason } from './skip.ts';
import { gatherStory, type Story } from './story.ts';
import { TEMPLATES, type Draft } from './templates.ts';

export type BuiltinWriterOptions = { now?: () => Date };

/** The default writer: deterministic, offline; the same input gives the same pitch but for `createdAt`. */
export function createBuiltinWriter(options: BuiltinWriterOptions = {}): PitchWriter {
  const now = options.now ?? (() => new Date());
  return { write: async (input) => writeBuiltinPitch(input, now().toISOString()) };
}

export function writeBuiltinPitch({ brief, version, previous, comments }: WriteInput, createdAt: string): Pitch {
  const skip = skipReason(brief);
  if (skip) return skipPitch(brief, version, skip, createdAt);

  const directives = foldDirectives(comments);
  const story = gatherStory(brief, directives);
  const draft = TEMPLATES[brief.format.template](story);
  const range = shotCountRange(brief.format.durationMs);
  let scenes = arrange(story, draft, directives, range.max);
  if (directives.fewer > 0) {
    // Each "shorter" asks for about a third fewer shots; the length itself is fixed by the brief.
    scenes = arrange(story, draft, directives, Math.max(range.min, 2, Math.floor(scenes.length * (2 / 3) ** directives.fewer)));
  }
  scenes = ensureCount(scenes, range.min);

  const spoken = brief.format.sound.voiceover && directives.voiceover;
  const durations = splitDuration(brief.format.durationMs, scenes.map((s) => weightOf(s, spoken)));
  const latest = comments.at(-1);
  const note = version > 1 && latest ? revisionNote(latest.comment, readComment(latest.comment), previous, scenes) : null;
  return {
    version,
    verdict: 'video',
    verdictReason: null,
    title: line(directives.title ?? draft.title, 160, 'Your video'),
    summary: summaryOf(story, directives, draft, scenes, note),
    shots: scenes.map((scene, index) => toShot(story, directives, scene, index, durations[index]!)),
    music: brief.format.sound.music && directives.music ? musicFor(story) : null,
    estimatedCredits: creditsFor(brief.format.durationMs),
    createdAt,
  };
}

/**
 * The draft cut to `maxShots`. The call to action needs room for one body shot beside it, the
 * intro for two: in a tight cut the content matters more than the framing.
 */
function arrange(story: Story, draft: Draft, directives: Directives, maxShots: number): Scene[] {
  const outro = directives.outro && maxShots >= 2;
  const intro = directives.intro && maxShots >= 3 + Number(outro);
  const body = fit(story, spotlight(story, draft.body, directives.focus), maxShots - Number(intro) - Number(outro));
  return attachMedia([...(intro ? [draft.intro] : []), ...body, ...(outro ? [draft.outro] : [])], story.media);
}

/** A shot's share of the running time: its visual weight, or the time its voiceover needs when that is longer. */
function weightOf(scene: Scene, spoken: boolean): number {
  const seen = scene.weight * 2.5;
  const heard = spoken && scene.voiceover ? words(scene.voiceover).length / 3 + 0.5 : 0;
  return Math.max(seen, heard);
}

function toShot(story: Story, directives: Directives, scene: Scene, index: number, durationMs: number): Shot {
  const seconds = durationMs / 1000;
  const { sound } = story.brief.format;
  const readable = Math.min(500, Math.max(40, Math.round(seconds * 30)));
  const voiceover = sound.voiceover && directives.voiceover && scene.voiceover ? speakable(scene.voiceover, voiceoverRoomWords(seconds)) : null;
  return {
    index,
    title: line(scene.title, 120, `Shot ${index + 1}`),
    durationMs,
    beat: optionalLine(sound.sfx ? `${scene.beat} · ${story.voice.sfx}` : scene.beat, 200),
    visual: line(scene.visual, 2000, 'A clean title card.'),
    text: directives.text ? optionalLine(scene.text && clip(scene.text, readable), 500) : null,
    voiceover: optionalLine(voiceover, 1000),
    mediaIds: [...new Set(scene.mediaIds)],
    codePaths: [...new Set(scene.codePaths)],
  };
}

function musicFor(story: Story): string {
  const { voice, brief } = story;
  const sfx = brief.format.sound.sfx ? `; sound effects: ${voice.sfx}` : '';
  return clip(`${voice.music}, around ${voice.bpm} BPM, building through the middle and resolving on the last shot${sfx}.`, 500);
}

function summaryOf(story: Story, directives: Directives, draft: Draft, scenes: Scene[], note: string | null): string {
  const { format } = story.brief;
  const on = (yes: boolean) => (yes ? 'on' : 'off');
  const seconds = Math.round(format.durationMs / 100) / 10;
  const folded = scenes.some((s) => s.beat === 'Roundup');
  const parts = [
    `${articleForNumber(seconds)} ${seconds}-second ${format.aspect} ${format.template} video in ${scenes.length} shot${scenes.length === 1 ? '' : 's'}, in a ${story.voice.label} voice${story.brand ? ` for ${story.brand}` : ''}: ${draft.shape}.`,
    story.changes.length ? `${story.changes.length} meaningful code change${story.changes.length === 1 ? '' : 's'}, most important first.` : '',
    folded ? `Smaller items share one roundup shot so every shot stays readable.` : '',
    story.points.length ? `The context's ${story.points.length} key sentence${story.points.length === 1 ? '' : 's'} lead${story.points.length === 1 ? 's' : ''} with “${clip(story.points[0]!.replace(/[.!?…]+$/u, ''), 160)}”.` : '',
    story.media.length ? `Uses ${story.media.length} media item${story.media.length === 1 ? '' : 's'}.` : '',
    `Voiceover ${on(format.sound.voiceover && directives.voiceover)}, music ${on(format.sound.music && directives.music)}, sound effects ${on(format.sound.sfx)}.`,
  ].filter(Boolean);
  const base = parts.join(' ');
  if (!note) return clip(base, 2000);
  const lead = clip(note, 900);
  return clip(`${lead}\n\n${base}`, 2000);
}
