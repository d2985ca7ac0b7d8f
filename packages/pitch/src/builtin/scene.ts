import type { CodeFile, MediaItem } from '@vp/contracts';
import { keyLine, sizeOf } from '../code-changes.ts';
import { talksAbout } from '../key-sentences.ts';
import { capitalize, clip, humanizePath, listing, oneLine, sentences } from '../text.ts';
import type { Story } from './story.ts';

/** A shot before it is timed and clipped to the schema's bounds. */
export type Scene = {
  role: 'intro' | 'body' | 'outro';
  title: string;
  /** A few words standing for the shot when it is folded into a roundup. */
  gist: string;
  visual: string;
  text: string | null;
  voiceover: string | null;
  beat: string;
  mediaIds: string[];
  codePaths: string[];
  /** Share of the running time, relative to the other shots. */
  weight: number;
  /** Which body shots survive when there are more than fit; higher stays. */
  priority: number;
};

const body = (scene: Omit<Scene, 'role' | 'mediaIds' | 'codePaths'> & Partial<Pick<Scene, 'mediaIds' | 'codePaths'>>): Scene => ({
  role: 'body', mediaIds: [], codePaths: [], ...scene,
});

const firstSentence = (text: string | null | undefined) => (text ? sentences(text)[0] ?? null : null);
const quote = (text: string) => `“${clip(oneLine(text), 90)}”`;

/** A sentence short enough to serve as a label. */
export function gistOf(text: string): string {
  return clip(oneLine(text).replace(/[.!?…]+$/u, ''), 48);
}

export function introScene(story: Story, title: string, voiceover: string): Scene {
  const text = capitalize(story.subject);
  return {
    role: 'intro', title, gist: text, text, voiceover, beat: 'Hook', mediaIds: [], codePaths: [], weight: 0.8, priority: 0,
    visual: `Open on ${story.palette}: ${story.logo} resolves, then ${quote(text)} lands in large type with ${story.voice.motion}. Layout: ${story.layout}.`,
  };
}

export function outroScene(story: Story): Scene {
  const cta = story.voice.cta(story.brand);
  return {
    role: 'outro', title: 'Call to action', gist: cta, text: cta, voiceover: cta,
    beat: 'Call to action', mediaIds: [], codePaths: [], weight: 0.8, priority: 0,
    visual: `End card on ${story.palette}: ${story.logo} centred with ${quote(cta)} beneath it; everything settles to rest. Layout: ${story.layout}.`,
  };
}

export function changeScene(story: Story, file: CodeFile, rank: number, of: number): Scene {
  const name = humanizePath(file.path);
  const status = file.status ?? 'changed';
  // What the client wrote about the change: its digest, else a sentence of the context naming it.
  const summary = firstSentence(file.digest) ?? story.sentences.find((s) => talksAbout(s, name)) ?? null;
  const line = keyLine(file);
  const stats = file.additions || file.deletions ? ` (+${file.additions} −${file.deletions})` : '';
  const action = line
    ? `the line \`${line}\` types itself in and glows in the accent colour`
    : 'the changed lines light up one after another';
  return body({
    title: `${story.voice.badge[status]}: ${name}`,
    gist: name,
    text: summary ? clip(summary, 120) : `${name}${stats}`,
    voiceover: summary ?? story.voice.said[status](status === 'added' ? name.toLocaleLowerCase('en') : name),
    beat: `Change ${rank} of ${of}`,
    codePaths: [file.path],
    visual: `A code card for \`${clip(file.path, 200)}\`${stats} slides in; ${action}.${status === 'removed' ? ' The card then folds away.' : ''} Layout: ${story.layout}.`,
    weight: 1 + file.score * 0.6 + Math.min(0.6, Math.log10(1 + sizeOf(file)) / 5),
    priority: 1000 - rank,
  });
}

/** A key sentence of the context; `label` says its role, e.g. "Highlight" → "Highlight: Teams asked for it". */
export function pointScene(story: Story, point: string, label: string | null, priority: number): Scene {
  const gist = gistOf(point);
  return body({
    title: label ? `${label}: ${gist}` : capitalize(gist), gist, text: clip(point, 140), voiceover: point, beat: label ?? 'Key point', priority,
    visual: `Kinetic type: ${quote(point)} builds word by word on ${story.palette}, the key words picked out in the accent colour. Layout: ${story.layout}.`,
    weight: 1,
  });
}

export function mediaScene(story: Story, item: MediaItem, title: string, priority: number): Scene {
  const name = oneLine(item.name);
  const about = item.description ? ` (${clip(oneLine(item.description), 200)})` : '';
  const shown = item.kind === 'video'
    ? `The clip “${clip(name, 80)}”${about} plays muted, trimmed to its key moment, inside a device frame`
    : `The image “${clip(name, 80)}”${about} fills the frame with a slow push-in`;
  return body({
    title, gist: clip(name, 50), text: clip(firstSentence(item.description) ?? name, 120), voiceover: story.voice.look(name),
    beat: title, mediaIds: [item.id], priority,
    visual: `${shown}. Layout: ${story.layout}.`,
    weight: item.kind === 'video' ? 1.4 : 1.1,
  });
}

export function subjectScene(story: Story, priority: number): Scene {
  const text = capitalize(story.subject);
  return body({
    title: text, gist: text, text, voiceover: story.voice.hello(story.subject), beat: 'The message', priority,
    visual: `${quote(text)} assembles letter by letter on ${story.palette}, then holds. Layout: ${story.layout}.`,
    weight: 1.2,
  });
}

/** A shot for something a comment asked about: its sentence in the context, or the term itself. */
export function spotlightScene(story: Story, term: string): Scene {
  const text = capitalize(term);
  const said = story.sentences.find((s) => talksAbout(s, term));
  if (said) return { ...pointScene(story, clip(said, 400), clip(text, 60), 0), beat: 'Spotlight' };
  return body({
    title: text, gist: text, text, voiceover: story.voice.spotlight(term), beat: 'Spotlight', priority: 0,
    visual: `Spotlight: ${quote(text)} slams in centre frame on ${story.palette} and holds. Layout: ${story.layout}.`,
    weight: 1,
  });
}

/** One shot standing for several changes in one area of the code, for digests. */
export function areaScene(story: Story, area: string, files: CodeFile[], priority: number): Scene {
  const names = files.slice(0, 3).map((f) => humanizePath(f.path));
  const count = `${files.length} change${files.length === 1 ? '' : 's'}`;
  const only = files.length === 1 && files[0] && names[0]?.toLocaleLowerCase('en').includes(area.toLocaleLowerCase('en')) ? files[0] : null;
  return body({
    title: `${area}: ${count}`, gist: area, text: listing(names),
    voiceover: only ? story.voice.said[only.status ?? 'changed'](names[0] ?? area) : `${area}: ${listing(names.map((n) => n.toLocaleLowerCase('en')))}.`,
    beat: area, codePaths: files.map((f) => f.path), priority,
    visual: `A board titled “${clip(area, 60)}” with a card per change (${clip(listing(names), 200)}) flipping in one after another. Layout: ${story.layout}.`,
    weight: 1 + Math.min(0.8, files.length / 5),
  });
}

/** The shot that stands in for the ones that did not fit; `alone` when it is the only body shot. */
export function roundupScene(story: Story, folded: Scene[], alone: boolean): Scene {
  const titles = folded.map((s) => oneLine(s.title));
  const gists = folded.map((s) => oneLine(s.gist));
  const title = alone ? story.voice.glance : story.voice.more(folded.length);
  return body({
    title, gist: title, text: clip(gists.join(' · '), 200),
    voiceover: (alone ? story.voice.glanceSaid : story.voice.moreSaid)(listing(gists.slice(0, 3))),
    beat: 'Roundup', priority: 0,
    mediaIds: folded.flatMap((s) => s.mediaIds), codePaths: folded.flatMap((s) => s.codePaths),
    visual: `A quick-fire list on ${story.palette}: ${clip(titles.slice(0, 8).join(' · '), 600)} tick in one after another. Layout: ${story.layout}.`,
    weight: 1.2,
  });
}

/** Adds a media item to a shot that was written without it. */
export function withMedia(scene: Scene, item: MediaItem): Scene {
  const kind = item.kind === 'video' ? 'clip' : 'image';
  return { ...scene, mediaIds: [...scene.mediaIds, item.id], visual: `${scene.visual} Cut in the ${kind} “${clip(oneLine(item.name), 80)}”.` };
}
