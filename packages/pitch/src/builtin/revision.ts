import type { Pitch } from '@vp/contracts';
import type { Directive } from '../directives.ts';
import { capitalize, clip, listing, oneLine } from '../text.ts';
import type { Scene } from './scene.ts';
import { mentions } from './arrange.ts';

/** The opening of a revised pitch's summary: the comment it answers and what changed for it. */
export function revisionNote(comment: string, asked: Directive[], previous: Pitch | null, scenes: Scene[]): string {
  const before = previous?.shots.length ?? null;
  const after = scenes.length;
  const changes = asked.map((d): string => {
    switch (d.kind) {
      case 'fewer':
        return before !== null && after < before ? `${before} shots became ${after}` : `already at the fewest readable shots (${after})`;
      case 'more':
        return before !== null && after > before ? `${before} shots became ${after}` : `already showing everything the brief has (${after} shots)`;
      case 'intro':
        return d.keep ? 'the intro is back' : 'the intro is gone';
      case 'outro':
        return d.keep ? 'the closing call to action is back' : 'the closing call to action is gone';
      case 'tone':
        return `the wording is more ${d.tone}`;
      case 'voiceover':
        return 'no voiceover any more';
      case 'text':
        return 'no on-screen text any more';
      case 'music':
        return 'no music any more';
      case 'title':
        return `the title is now “${clip(d.title, 80)}”`;
      case 'focus': {
        const at = scenes.findIndex((s) => mentions(s, d.term));
        return `“${clip(d.term, 60)}” now leads${at >= 0 ? ` (shot ${at + 1})` : ''}`;
      }
    }
  });
  const answer = changes.length
    ? `${capitalize(listing([...new Set(changes)]))}.`
    : 'This writer found no change it can make on its own in it, so the shots stay as they were.';
  return `In answer to “${clip(oneLine(comment), 200)}”: ${answer}`;
}
