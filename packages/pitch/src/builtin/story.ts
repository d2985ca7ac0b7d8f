import type { Aspect, Brief, CodeFile, MediaItem } from '@vp/contracts';
import { rankChanges } from '../code-changes.ts';
import type { Directives } from '../directives.ts';
import { keySentences } from '../key-sentences.ts';
import { clip, oneLine, optionalLine, sentences } from '../text.ts';
import { toneOf, voiceOf, type Voice } from '../voice.ts';

/** Everything a template writes from, read once from the brief and the comments. */
export type Story = {
  brief: Brief;
  voice: Voice;
  brand: string | null;
  /** What the video is about, from the intent: "Show off the new dark mode" → "the new dark mode". */
  subject: string;
  /** Meaningful code changes, most important first. */
  changes: CodeFile[];
  /** The key sentences of the context, in their original order. */
  points: string[];
  media: MediaItem[];
  /** Every sentence of the context, to find what a comment asks about. */
  sentences: string[];
  layout: string;
  palette: string;
  logo: string;
};

const MAX_POINTS = 12;

export function gatherStory(brief: Brief, directives: Directives): Story {
  const brand = optionalLine(brief.brand.name, 60);
  return {
    brief,
    voice: voiceOf(directives.tone ?? toneOf(brief.brand.tone)),
    brand,
    subject: subjectOf(brief.intent),
    changes: rankChanges(brief.code),
    points: keySentences(brief.context, MAX_POINTS, [brief.intent, ...directives.focus]).map((s) => clip(s, 400)),
    media: brief.media,
    sentences: brief.context ? sentences(brief.context).slice(0, 400) : [],
    layout: layoutFor(brief.format.aspect),
    palette: paletteOf(brief.brand),
    logo: brief.brand.logoUrl ? 'the brand logo' : brand ? `the ${brand} wordmark` : 'the title',
  };
}

const REQUEST = /^(?:please\s+)?(?:(?:make|create|produce|render|do|write|build|give)\s+(?:me\s+|us\s+)?(?:an?\s+|the\s+)?(?:short\s+|quick\s+|brief\s+|little\s+)?(?:video|clip|reel|spot|teaser|piece|motion\s+design)\s*(?:about|for|on|of|that\s+\w+|showing|explaining|announcing|to\s+\w+)?\s*)?(?:(?:show\s+off|show|showcase|announce|present|highlight|explain|introduce|celebrate|promote|recap|summari[sz]e|walk\s+through|demo|tease|share)\s+)?/i;

export function subjectOf(intent: string): string {
  const first = sentences(intent)[0] ?? oneLine(intent);
  const subject = first.replace(REQUEST, '').replace(/[.!?…:;,\s]+$/u, '').trim();
  return clip(subject || first || 'our latest work', 100);
}

function layoutFor(aspect: Aspect): string {
  if (aspect === '1:1') return 'square 1:1 frame, one centred card';
  if (['9:16', '2:3', '3:4', '4:5'].includes(aspect)) return `vertical ${aspect} frame, stacked top to bottom with large centred type`;
  if (aspect === '21:9') return 'ultra-wide 21:9 frame, visual on the left two-thirds, caption on the right';
  return `wide ${aspect} frame, visual on the left, caption on the right`;
}

function paletteOf(brand: Brief['brand']): string {
  const parts = [
    brand.backgroundColor && `background ${oneLine(brand.backgroundColor)}`,
    brand.primaryColor && `accent ${oneLine(brand.primaryColor)}`,
    brand.fontFamily && `type set in ${clip(oneLine(brand.fontFamily), 60)}`,
  ].filter((p): p is string => Boolean(p && p.trim()));
  return parts.length ? `the brand palette (${parts.join(', ')})` : 'a dark background with one accent colour';
}
