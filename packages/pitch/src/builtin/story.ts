import type { Brief, CodeFile, MediaItem } from '@vp/contracts';
import { rankChanges } from '../code-changes.ts';
import type { Directives } from '../directives.ts';
import { keySentences } from '../key-sentences.ts';
import { oneLine, sentences } from '../text.ts';
import { toneOf, voiceOf, type Voice } from '../voice.ts';

/** Everything a template writes from, read once from the brief and the comments. */
export type Story = {
  brief: Brief;
  voice: Voice;
  brand: string | null;
  /** What the video is about, from the intent: "Show off the new dark mode" → "the new dark mode". */
  subject: string;
  /** The subject's name, before a colon or dash ("Acme Review: approve videos…" → "Acme Review"), and what it claims after it. */
  product: string;
  claim: string | null;
  /** Meaningful code changes, most important first. */
  changes: CodeFile[];
  /** The key sentences of the context, in their original order. */
  points: string[];
  media: MediaItem[];
  /** Every sentence of the context, to find what a comment asks about. */
  sentences: string[];
};

const MAX_POINTS = 12;

export function gatherStory(brief: Brief, directives: Directives): Story {
  const brand = oneLine(brief.brand.name ?? '') || null;
  return {
    brief,
    voice: voiceOf(directives.tone ?? toneOf(brief.brand.tone)),
    brand,
    ...subjectOf(brief.intent),
    changes: rankChanges(brief.code),
    points: keySentences(brief.context, MAX_POINTS, [brief.intent, ...directives.focus]),
    media: brief.media,
    sentences: brief.context ? sentences(brief.context).slice(0, 400) : [],
  };
}

/** How a brief asks for its video, and the verbs of an announcement: neither is part of what the video is about. */
const REQUEST = /^(?:please\s+)?(?:(?:make|create|produce|render|do|write|build|give)\s+(?:me\s+|us\s+)?(?:an?\s+|the\s+)?(?:short\s+|quick\s+|brief\s+|little\s+)?(?:video|clip|reel|spot|teaser|piece|motion\s+design)\s*(?:about|for|on|of|that\s+\w+|showing|explaining|announcing|to\s+\w+)?\s*)?(?:(?:we(?:'re|\s+are)\s+|we\s+)?(?:show(?:ing)?\s+off|show(?:case)?|announc(?:e|ing)|present(?:ing)?|highlight|explain|introduc(?:e|ing)|celebrat(?:e|ing)|promot(?:e|ing)|recap|summari[sz]e|walk\s+through|demo|teas(?:e|ing)|share|launch(?:ing)?|ship(?:ping)?|unveil(?:ing)?|roll(?:ing)?\s+out|debut(?:ing)?|reveal(?:ing)?|meet|welcome|say\s+hello\s+to|check\s+out)\s+)?/i;

/** The subject of an intent, and its product name and claim: "Launch Acme Review: approve videos in one click". */
export function subjectOf(intent: string): { subject: string; product: string; claim: string | null } {
  const first = sentences(intent)[0] ?? oneLine(intent);
  const subject = first.replace(REQUEST, '').replace(/[.!?…:;,\s]+$/u, '').trim() || first || 'our latest work';
  const [, name, claim] = /^(.{2,80}?)\s*(?::|\s[–—-])\s+(.+)$/u.exec(subject) ?? [];
  return { subject, product: name?.trim() || subject, claim: claim?.trim() || null };
}
