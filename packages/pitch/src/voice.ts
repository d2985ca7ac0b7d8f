import type { CodeFile } from '@vp/contracts';

export type Tone = 'playful' | 'formal' | 'neutral';
type Status = NonNullable<CodeFile['status']> | 'changed';

const PLAYFUL = /\b(playful|fun|funny|friendly|casual|witty|cheeky|quirky|upbeat|energetic|cheerful|light-?hearted|whimsical|punchy|irreverent|silly|warm|bubbly|joyful)\b/i;
const FORMAL = /\b(formal|professional|corporate|serious|authoritative|enterprise|polished|sober|precise|institutional|reserved|elegant|premium|technical|business)\b/i;

/** The tone a brand's own description asks for; the first kind of word named wins. */
export function toneOf(description: string | null): Tone {
  const playful = description?.search(PLAYFUL) ?? -1;
  const formal = description?.search(FORMAL) ?? -1;
  if (playful < 0 && formal < 0) return 'neutral';
  if (formal < 0) return 'playful';
  if (playful < 0) return 'formal';
  return playful < formal ? 'playful' : 'formal';
}

/** The words a tone chooses; every template writes through one of these. */
export type Voice = {
  tone: Tone;
  label: string;
  opener: string;
  hello: (subject: string) => string;
  welcome: (brand: string | null) => string;
  badge: Record<Status, string>;
  said: Record<Status, (name: string) => string>;
  more: (count: number) => string;
  moreSaid: (names: string) => string;
  glance: string;
  glanceSaid: (names: string) => string;
  look: (name: string) => string;
  spotlight: (term: string) => string;
  tease: string;
  underTheHood: string;
  problem: string;
  payoff: string;
  step: string;
  cta: (brand: string | null) => string;
  music: string;
  bpm: number;
  motion: string;
  sfx: string;
  /** What a code change does, said in this tone: `things` are its names as words. */
  change: {
    added: (name: string, things: string) => string;
    removed: (name: string, things: string) => string;
    renamed: (from: string, to: string) => string;
    updated: (name: string, things: string) => string;
  };
  /** The summary's words: how the video feels, what plays under it, who speaks. */
  feel: string;
  bed: string;
  speaker: string;
};

const VOICES: Record<Tone, Voice> = {
  playful: {
    tone: 'playful',
    label: 'playful',
    opener: 'Fresh out of the oven',
    hello: (s) => `Say hello to ${s}!`,
    welcome: (brand) => (brand ? `Big news from ${brand}!` : 'Big news, everyone!'),
    badge: { added: 'Brand new', modified: 'Glow-up', removed: 'Waved goodbye', renamed: 'Fresh name', changed: 'Fresh' },
    said: {
      added: (n) => `We cooked up ${n}!`,
      modified: (n) => `${n} just got a glow-up.`,
      removed: (n) => `${n} has left the building.`,
      renamed: (n) => `${n} is rocking a shiny new name.`,
      changed: (n) => `${n} got some love.`,
    },
    more: (n) => `Plus ${n} more goodies`,
    moreSaid: (names) => `And that's not all: ${names}, and more!`,
    glance: 'All the goodies',
    glanceSaid: (names) => `So much new stuff: ${names}, and more!`,
    look: (n) => `Feast your eyes on ${n}!`,
    spotlight: (t) => `And yes: ${t}!`,
    tease: 'Guess what?',
    underTheHood: 'Under the hood',
    problem: 'The setup',
    payoff: 'The happy ending',
    step: 'Trick',
    cta: (brand) => (brand ? `Go take it for a spin with ${brand}!` : 'Go take it for a spin!'),
    music: 'Bouncy, upbeat synth-pop with playful plucks and light percussion',
    bpm: 118,
    motion: 'bouncy spring animations and snappy whip-pans',
    sfx: 'pop and whoosh on the cut',
    change: {
      added: (n, things) => `${n} learned a new trick: ${things}!`,
      removed: (n, things) => `${n} waved goodbye to ${things}.`,
      renamed: (from, to) => `${from} is now called ${to}!`,
      updated: (n, things) => `${n} gave ${things} a glow-up.`,
    },
    feel: 'Bouncy motion and bright type keep it fun',
    bed: 'a bouncy synth-pop beat',
    speaker: 'a cheerful voice',
  },
  formal: {
    tone: 'formal',
    label: 'formal',
    opener: 'Release overview',
    hello: (s) => `Introducing ${s}.`,
    welcome: (brand) => (brand ? `An overview of the latest release from ${brand}.` : 'An overview of the latest release.'),
    badge: { added: 'New', modified: 'Updated', removed: 'Removed', renamed: 'Renamed', changed: 'Changed' },
    said: {
      added: (n) => `${n} has been introduced.`,
      modified: (n) => `${n} has been updated.`,
      removed: (n) => `${n} has been retired.`,
      renamed: (n) => `${n} has been renamed.`,
      changed: (n) => `${n} has been revised.`,
    },
    more: (n) => `${n} further changes`,
    moreSaid: (names) => `Further changes include ${names}.`,
    glance: 'Summary of changes',
    glanceSaid: (names) => `This release includes ${names}.`,
    look: (n) => `Shown here: ${n}.`,
    spotlight: (t) => `A note on ${t}.`,
    tease: 'Announcement',
    underTheHood: 'Technical changes',
    problem: 'Context',
    payoff: 'The outcome',
    step: 'Step',
    cta: (brand) => (brand ? `Available now from ${brand}.` : 'Available now.'),
    music: 'Understated, steady ambient score with soft piano and a restrained pulse',
    bpm: 84,
    motion: 'measured fades and precise, eased slides',
    sfx: 'subtle tick on the transition',
    change: {
      added: (n, things) => `${n} introduces ${things}.`,
      removed: (n, things) => `${n} retires ${things}.`,
      renamed: (from, to) => `${from} has been renamed ${to}.`,
      updated: (n, things) => `${n} revises ${things}.`,
    },
    feel: 'Measured motion and clean type keep it precise and composed',
    bed: 'a restrained ambient score',
    speaker: 'a calm voice',
  },
  neutral: {
    tone: 'neutral',
    label: 'friendly, clear',
    opener: "What's new",
    hello: (s) => `Meet ${s}.`,
    welcome: (brand) => (brand ? `Here's what's new at ${brand}.` : "Here's what's new."),
    badge: { added: 'New', modified: 'Improved', removed: 'Removed', renamed: 'Renamed', changed: 'Updated' },
    said: {
      added: (n) => `New: ${n}.`,
      modified: (n) => `${n} gets an update.`,
      removed: (n) => `${n} is gone.`,
      renamed: (n) => `${n} has a new name.`,
      changed: (n) => `${n} has changed.`,
    },
    more: (n) => `And ${n} more`,
    moreSaid: (names) => `Also in this update: ${names}.`,
    glance: 'At a glance',
    glanceSaid: (names) => `In this update: ${names}.`,
    look: (n) => `Take a look at ${n}.`,
    spotlight: (t) => `Let's talk about ${t}.`,
    tease: 'Coming up',
    underTheHood: 'Under the hood',
    problem: 'The setup',
    payoff: 'The result',
    step: 'Step',
    cta: (brand) => (brand ? `Try it today with ${brand}.` : 'Try it today.'),
    music: 'Modern, light electronic groove with a clear beat',
    bpm: 100,
    motion: 'smooth slides and clean cross-fades',
    sfx: 'soft whoosh on the cut',
    change: {
      added: (n, things) => `${n} adds ${things}.`,
      removed: (n, things) => `${n} drops ${things}.`,
      renamed: (from, to) => `${from} is now ${to}.`,
      updated: (n, things) => `${n} reworks ${things}.`,
    },
    feel: 'Smooth slides and clear type keep it easy to follow',
    bed: 'a light electronic groove',
    speaker: 'a friendly voice',
  },
};

export function voiceOf(tone: Tone): Voice {
  return VOICES[tone];
}
