import type { Brief, Shot } from '@vp/contracts';
import { articleForNumber, clip, codePointLength, listing, oneLine } from '../text.ts';
import type { Scene } from './scene.ts';
import type { Story } from './story.ts';

const WHAT: Record<Brief['format']['template'], string> = {
  changelog: 'tour of what is new in',
  launch: 'launch film for',
  feature: 'walk through',
  digest: 'roundup of',
  custom: 'film about',
};

/**
 * The pitch's summary, as a person reads it before paying: what the video is, what it shows,
 * and how it feels and ends, in the brand's tone. A revision's note leads it.
 */
export function summaryOf(story: Story, scenes: Scene[], shots: Shot[], sound: { spoken: boolean; music: boolean }, note: string | null): string {
  const { format } = story.brief;
  const seconds = Math.round(format.durationMs / 100) / 10;
  const about = codePointLength(story.subject) <= 90 ? story.subject : story.product;
  const opening = `${articleForNumber(seconds)} ${seconds}-second ${WHAT[format.template]} ${clip(about, 120)}.`;
  const seen = shownOf(story, scenes);
  const last = shots.at(-1);
  const ending = oneLine(last?.text ?? last?.title ?? '').replace(/[.!?…]+$/u, '');
  const { voice } = story;
  const carried = sound.spoken && sound.music ? `${voice.speaker} walks the viewer through it over ${voice.bed}`
    : sound.spoken ? `${voice.speaker} walks the viewer through it`
      : sound.music ? `${voice.bed} carries it` : '';
  const feel = `${voice.feel}${carried ? `; ${carried}` : ''}${ending ? `, ending on “${clip(ending, 120)}”` : ''}.`;
  const base = [opening, seen, feel].filter(Boolean).join(' ');
  return clip(note ? `${clip(note, 900)}\n\n${base}` : base, 2000);
}

/** What the viewer sees, by name: the pictures, the files, the areas of code; the statements when there is nothing else. */
function shownOf(story: Story, scenes: Scene[]): string {
  const media = new Map(story.media.map((item) => [item.id, item.name]));
  const named = scenes.filter((scene) => scene.role === 'body').flatMap((scene) => {
    if (scene.mediaIds.length) return scene.mediaIds.flatMap((id) => (media.has(id) ? [`“${clip(oneLine(media.get(id)!), 60)}”`] : []));
    if (scene.codePaths.length) return [clip(oneLine(scene.gist), 60)];
    return [];
  });
  const unique = [...new Set(named)];
  if (unique.length) return `On screen: ${unique.length > 4 ? `${unique.slice(0, 4).join(', ')} and ${unique.length - 4} more` : listing(unique)}.`;
  const points = scenes.filter((scene) => scene.role === 'body').length;
  return points ? `Its ${points === 1 ? 'message lands' : `${points} key lines land`} one by one in large type.` : '';
}
