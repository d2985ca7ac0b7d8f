import { creditsFor, type Pitch, type Shot } from '@vp/contracts';
import { describeShots, shotBoxes, signOffBox } from '@vp/render/layouts';
import { foldDirectives, readComment, type Directives } from '../directives.ts';
import { capitalize, clip, line, optionalLine, words } from '../text.ts';
import { shotCountRange, splitDuration } from '../timing.ts';
import type { PitchWriter, WriteInput } from '../writer.ts';
import { attachMedia, ensureCount, fit, spotlight } from './arrange.ts';
import { revisionNote } from './revision.ts';
import type { Scene } from './scene.ts';
import { skipPitch, skipReason } from './skip.ts';
import { gatherStory, type Story } from './story.ts';
import { summaryOf } from './summary.ts';
import { TEMPLATES, type Draft } from './templates.ts';
import { fitted, shotWords, type UsedWords } from './words.ts';

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
  const music = brief.format.sound.music && directives.music;
  const durations = splitDuration(brief.format.durationMs, scenes.map((s) => weightOf(s, spoken, directives.text)));
  const used: UsedWords = { text: new Set(), voiceover: new Set() };
  const shots = scenes.map((scene, index) => toShot(story, directives, scene, index, scenes.length, durations[index]!, used));
  const latest = comments.at(-1);
  const note = version > 1 && latest ? revisionNote(latest.comment, readComment(latest.comment), previous, scenes) : null;
  const title = fitted([directives.title, draft.title, capitalize(story.subject), capitalize(story.product), story.brand, 'Your video'], signOffBox(brief), 160) ?? 'Your video';
  const pitch: Pitch = {
    version,
    verdict: 'video',
    verdictReason: null,
    title,
    summary: summaryOf(story, scenes, shots, { spoken, music }, note),
    shots,
    music: music ? musicFor(story) : null,
    estimatedCredits: creditsFor(brief.format.durationMs),
    createdAt,
  };
  // What each shot shows, in the words of the layouts the renderer will draw it with.
  const visuals = describeShots(brief, pitch);
  return { ...pitch, shots: shots.map((shot, i) => ({ ...shot, visual: line(visuals[i], 2000, 'A clean title card.') })) };
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

/** A shot's share of the running time: its visual weight, or the time its text takes to read or its voiceover to say when that is longer. */
function weightOf(scene: Scene, spoken: boolean, shown: boolean): number {
  const seen = scene.weight * 2.5;
  const read = shown && scene.text ? words(scene.text).length / 3 + 0.5 : 0;
  const heard = spoken && scene.voiceover ? words(scene.voiceover).length / 3 + 0.5 : 0;
  return Math.max(seen, read, heard);
}

function toShot(story: Story, directives: Directives, scene: Scene, index: number, count: number, durationMs: number, used: UsedWords): Shot {
  const { sound } = story.brief.format;
  const shape = { mediaIds: [...new Set(scene.mediaIds)], codePaths: [...new Set(scene.codePaths)] };
  const words = shotWords(scene, shotBoxes(story.brief, shape, index, count), {
    index, seconds: durationMs / 1000, showText: directives.text, spoken: sound.voiceover && directives.voiceover, used,
  });
  return {
    index,
    ...words,
    durationMs,
    beat: optionalLine(sound.sfx ? `${scene.beat} · ${story.voice.sfx}` : scene.beat, 200),
    // Written from the renderer's catalogue once the whole pitch is known (see `describeShots`).
    visual: 'A shot.',
    ...shape,
  };
}

function musicFor(story: Story): string {
  const { voice, brief } = story;
  const sfx = brief.format.sound.sfx ? `; sound effects: ${voice.sfx}` : '';
  return clip(`${voice.music}, around ${voice.bpm} BPM, building through the middle and resolving on the last shot${sfx}.`, 500);
}
