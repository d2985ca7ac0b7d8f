import { spokenWords, voiceoverRoomWords } from '@vp/contracts';
import { fitsBox, fitsComfortably, type ShotBoxes, type TextBox } from '@vp/render/layouts';
import { codePointLength, oneLine, speakable } from '../text.ts';
import type { Scene } from './scene.ts';

/** What a shot says on screen and aloud, each fitted to its box and its time. */
export type ShotWords = { title: string; text: string | null; voiceover: string | null };

/** Lines and captions already used by earlier shots of the pitch: no two shots share one. */
export type UsedWords = { text: Set<string>; voiceover: Set<string> };

const SCHEMA = { title: 120, text: 500, voiceover: 1000 };
const sameWords = (text: string) => spokenWords(text).join(' ') || oneLine(text);

/**
 * The first of `candidates` that fits `box` at one of its larger sizes, else the first that fits
 * at any size of the scale (a shorter phrasing first, then a smaller size); null when none does.
 * Without a box (words the frame does not show), the first within the schema's bound.
 */
export function fitted(candidates: (string | null | undefined)[], box: TextBox | null, max: number, allowed: (text: string) => boolean = () => true): string | null {
  const options = [...new Set(candidates.map((c) => oneLine(c ?? '')))].filter((c) => c && codePointLength(c) <= max && allowed(c));
  if (!box) return options[0] ?? null;
  return options.find((c) => fitsComfortably(c, box)) ?? options.find((c) => fitsBox(c, box)) ?? null;
}

/**
 * A shot's words, written to its boxes on the frame and its time: the text (on-screen words a
 * viewer reads at about three words a second), then the title in the box the text leaves it
 * (a statement shows its title as the label above it, or as the statement when it has none),
 * then the voiceover line, in whole sentences or a whole clause that fit the shot's time. A
 * caption or line another shot already has is not used again.
 */
export function shotWords(scene: Scene, boxes: ShotBoxes, options: { index: number; seconds: number; showText: boolean; spoken: boolean; used: UsedWords }): ShotWords {
  const { seconds, used } = options;
  const readable = voiceoverRoomWords(seconds);
  const text = options.showText
    ? fitted([scene.text, ...scene.shorter.text], boxes.text, SCHEMA.text, (c) => spokenWords(c).length <= readable && !used.text.has(sameWords(c)))
    : null;
  // A statement without its text shows its title in the text's place, to be read in the same time.
  const statement = boxes.kind === 'text' && !text;
  const titleBox = statement ? boxes.titleAlone : boxes.title;
  const titles = [scene.title, ...scene.shorter.title];
  const title = fitted(titles, titleBox, SCHEMA.title, (c) => !statement || spokenWords(c).length <= readable)
    ?? fitted([...titles, `Shot ${options.index + 1}`], titleBox, SCHEMA.title) ?? `Shot ${options.index + 1}`;
  const voiceover = options.spoken && scene.voiceover
    ? [scene.voiceover, ...scene.shorter.voiceover]
      .map((line) => speakable(line, voiceoverRoomWords(seconds)))
      .find((line) => line && codePointLength(line) <= SCHEMA.voiceover && !used.voiceover.has(sameWords(line))) ?? null
    : null;
  if (text) used.text.add(sameWords(text));
  if (voiceover) used.voiceover.add(sameWords(voiceover));
  return { title, text, voiceover };
}
