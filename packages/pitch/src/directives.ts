import type { Tone } from './voice.ts';
import { codePointLength, oneLine } from './text.ts';

/** A change a comment asks for that the built-in writer understands without guessing. */
export type Directive =
  | { kind: 'fewer' }
  | { kind: 'more' }
  | { kind: 'intro' | 'outro'; keep: boolean }
  | { kind: 'tone'; tone: Tone }
  | { kind: 'voiceover' | 'text' | 'music'; keep: false }
  | { kind: 'focus'; term: string }
  | { kind: 'title'; title: string };

/** What the whole comment history asks for, later comments overriding earlier ones. */
export type Directives = {
  fewer: number;
  intro: boolean;
  outro: boolean;
  tone: Tone | null;
  voiceover: boolean;
  text: boolean;
  music: boolean;
  focus: string[];
  title: string | null;
};

const DROP = String.raw`\b(?:drop|remove|cut|skip|lose|delete|kill|ditch|no|without|get rid of)\b[^.!?\n]{0,24}?`;
const NEGATED = /\b(?:don'?t|do not|never|not|no need to)\s+(?:[\p{L}'-]+\s+){0,2}$/iu;
const PATTERNS: { test: RegExp; read: (match: RegExpMatchArray) => Directive | null }[] = [
  { test: /\b(?:shorter|fewer shots|less shots|too long|too many shots|tighter|condense|trim it|cut it down)\b/i, read: () => ({ kind: 'fewer' }) },
  { test: /\b(?:more shots|more detail|too few shots)\b/i, read: () => ({ kind: 'more' }) },
  { test: new RegExp(DROP + String.raw`\b(?:intro|introduction|opening)\b`, 'i'), read: () => ({ kind: 'intro', keep: false }) },
  { test: /\b(?:add|bring back|restore|put back)\b[^.!?\n]{0,24}?\b(?:intro|introduction|opening)\b/i, read: () => ({ kind: 'intro', keep: true }) },
  { test: new RegExp(DROP + String.raw`\b(?:outro|ending|end card|call to action|cta|closing)\b`, 'i'), read: () => ({ kind: 'outro', keep: false }) },
  { test: /\b(?:add|bring back|restore|put back)\b[^.!?\n]{0,24}?\b(?:outro|ending|end card|call to action|cta|closing)\b/i, read: () => ({ kind: 'outro', keep: true }) },
  { test: /\b(?:more (?:playful|fun|casual|light-?hearted|energetic|friendly|relaxed)|less (?:formal|serious|corporate|stiff|dry)|too (?:formal|serious|corporate|stiff|dry))\b/i, read: () => ({ kind: 'tone', tone: 'playful' }) },
  { test: /\b(?:more (?:formal|professional|serious|corporate|sober)|less (?:playful|casual|silly|goofy|jokey)|too (?:playful|casual|silly|goofy|jokey))\b/i, read: () => ({ kind: 'tone', tone: 'formal' }) },
  { test: new RegExp(DROP + String.raw`\b(?:voice-?overs?|narration|narrator|vo)\b`, 'i'), read: () => ({ kind: 'voiceover', keep: false }) },
  { test: new RegExp(DROP + String.raw`\b(?:on-?screen text|text on screen|text overlays?|captions)\b`, 'i'), read: () => ({ kind: 'text', keep: false }) },
  { test: new RegExp(DROP + String.raw`\bmusic\b`, 'i'), read: () => ({ kind: 'music', keep: false }) },
  {
    test: /\b(?:call it|title it|name it|rename it(?: to)?|title:)\s*["“'«]([^"”'»\n]{1,160})["”'»]/i,
    read: (m) => (oneLine(m[1] ?? '') ? { kind: 'title', title: oneLine(m[1] ?? '') } : null),
  },
  {
    test: /\b(?:mention|focus on|highlight|emphasi[sz]e|talk about|feature|spotlight|show more of|say more about|include)\s+([^.,;!?\n]{2,120})/i,
    read: (m) => {
      const term = focusTerm(m[1] ?? '');
      return term ? { kind: 'focus', term } : null;
    },
  },
];

/** The directives one comment carries, clause by clause, ignoring negated clauses. */
export function readComment(comment: string): Directive[] {
  const found: Directive[] = [];
  for (const clause of oneLine(comment).split(/[.!?;\n]+|\bbut\b/i)) {
    for (const { test, read } of PATTERNS) {
      const match = clause.match(test);
      if (!match) continue;
      if (NEGATED.test(clause.slice(0, match.index ?? 0))) continue;
      const directive = read(match);
      if (directive) found.push(directive);
    }
  }
  return found;
}

export function foldDirectives(comments: { comment: string }[]): Directives {
  const result: Directives = { fewer: 0, intro: true, outro: true, tone: null, voiceover: true, text: true, music: true, focus: [], title: null };
  for (const { comment } of comments) {
    for (const d of readComment(comment)) apply(result, d);
  }
  return result;
}

function apply(result: Directives, d: Directive): void {
  switch (d.kind) {
    case 'fewer': result.fewer++; break;
    case 'more': result.fewer = Math.max(0, result.fewer - 1); break;
    case 'intro': case 'outro': result[d.kind] = d.keep; break;
    case 'tone': result.tone = d.tone; break;
    case 'voiceover': case 'text': case 'music': result[d.kind] = false; break;
    case 'title': result.title = d.title; break;
    case 'focus':
      result.focus = [d.term, ...result.focus.filter((t) => t.toLowerCase() !== d.term.toLowerCase())].slice(0, 5);
  }
}

function focusTerm(raw: string): string | null {
  const head = oneLine(raw).split(/\s+(?:and|instead|please|too|more|as well|in the|at the)\b/i)[0] ?? '';
  const term = head
    .replace(/^(?:the|a|an|our|its|their|more)\s+/i, '')
    .replace(/["“”'«»]/g, '')
    .trim();
  // A term is at most 80 characters of whole words: it is shown and said as it is.
  const words = term.split(' ');
  while (words.length > 1 && codePointLength(words.join(' ')) > 80) words.pop();
  const short = words.join(' ');
  return short && codePointLength(short) <= 80 ? short : null;
}
