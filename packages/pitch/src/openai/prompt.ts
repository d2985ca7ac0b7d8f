import type { Brief, CodeFile, Pitch } from '@vp/contracts';
import { shotBoxes, type TextBox } from '@vp/render/layouts';
import { rankChanges } from '../code-changes.ts';
import { clip } from '../text.ts';
import type { WriteInput } from '../writer.ts';

/** How much of the code the model reads: the best-ranked files first, each excerpt capped. */
export const CODE_BUDGET_CHARS = 24_000;
const EXCERPT_CHARS = 4_000;
const CONTEXT_CHARS = 12_000;

export const SYSTEM_PROMPT = `You write pitches for short motion-design videos: a script and a shot list, written from a client's brief.

Answer with one JSON object and nothing else, in exactly this shape:
{
  "verdict": "video" or "skip",
  "verdictReason": string or null,  // at most 1000 characters; required when verdict is "skip", null otherwise
  "title": string,                  // 1 to 160 characters
  "summary": string,                // 1 to 2000 characters: in a sentence or three, in the brand's tone, what the viewer will see and feel; for a revision, first what changed in answer to the latest comment. Never how you chose (no "ranked", "key sentences", "media items")
  "music": string or null,          // at most 500 characters of music direction; null when music is off
  "shots": [                        // 1 to 24 shots, in playing order
    {
      "title": string,              // 1 to 120 characters; shown as the shot's heading: a few words
      "durationMs": integer,        // 500 to 60000
      "beat": string or null,       // at most 200 characters: the shot's role and rhythm cue
      "visual": string or null,     // leave null: the service describes each shot from the layouts it draws
      "text": string or null,       // on-screen words: one short sentence a viewer reads at three words a second of the shot
      "voiceover": string or null,  // at most 1000 characters; null in every shot when voiceover is off
      "mediaIds": [string],         // only ids from the brief's media
      "codePaths": [string]         // only paths from the brief's code
    }
  ]
}
Do not send version, index, createdAt or estimatedCredits: they are filled in for you.

Rules:
- The shots' durationMs add up to exactly the length the user message gives. Keep every shot readable: about 1.5 s or more.
- A voiceover line is spoken from its shot's start until the next line starts (it may run on over shots without a line after it): it says at most about three words a second of that time (2 s: 7 words; "v2.4.1" counts as three).
- Templates: "changelog" is an intro, one shot per meaningful code change ranked by score and then by size (additions + deletions), smaller changes folded into one roundup shot, then a call to action; "launch" is why it matters, the reveal, the highlights, a call to action; "feature" is the problem, how the feature works step by step, the result; "digest" is one shot per area of change plus notes; "custom" follows the intent and the context.
- Lockfiles, generated files (dist/, *.min.js, *.map, snapshots, vendored code) and whitespace-only changes are not worth showing. When they are all the brief has, and it has no media and no context, answer verdict "skip" with a reason, and still give one shot whose durationMs is the whole length.
- On-screen words are set in the renderer's boxes (the user message gives how much each holds on this frame): a title is a heading of a few words, a text one short sentence. Write every title, text and line whole: never end one with an ellipsis or cut it mid-sentence; say it in fewer words instead.
- Each code change gets its own words: what that file's change adds, renames or removes (its patch, its digest), never the same caption or line as another shot.
- Name the product without the verb of the intent: "Launch Acme Review" is about Acme Review.
- Write in the brand's tone and use the brand's name in the title or the closing shot when it has one.
- Use the intent and the key sentences of the context. Refer to the brief's media and code in the shots that show them.
- When revising, answer the latest comment visibly, keep what it did not ask to change, and say in the summary what changed.`;

export function userPrompt({ brief, version, previous, comments }: WriteInput): string {
  const { format } = brief;
  const latest = comments.at(-1);
  const sections = [
    `Write pitch version ${version}.`,
    `Length: the shots' durationMs must add up to exactly ${format.durationMs}.`,
    `Voiceover is ${format.sound.voiceover ? 'on' : 'off: every shot\'s voiceover is null'}. Music is ${format.sound.music ? 'on' : 'off: music is null'}. Sound effects are ${format.sound.sfx ? 'on' : 'off'}.`,
    `Media ids you may use: ${JSON.stringify(brief.media.map((m) => m.id))}.`,
    `Code paths you may use: ${JSON.stringify(brief.code.map((c) => c.path))}.`,
    roomOnScreen(brief),
    `The brief:\n${JSON.stringify(briefForModel(brief), null, 1)}`,
  ];
  if (previous) sections.push(`The previous pitch (version ${previous.version}):\n${JSON.stringify(pitchForModel(previous), null, 1)}`);
  if (comments.length) {
    sections.push(`The client's comments, oldest first:\n${comments.map((c) => `- on version ${c.pitchVersion}: ${JSON.stringify(c.comment)}`).join('\n')}`);
  }
  if (latest) sections.push(`This version answers the latest comment: ${JSON.stringify(latest.comment)}`);
  return sections.join('\n\n');
}

/** How much each box holds on the brief's frame, at its smallest type: what the model writes to. */
function roomOnScreen(brief: Brief): string {
  const { aspect } = brief.format;
  const holds = (box: TextBox | null) => (box ? Math.floor(box.maxWidth / ((box.sizes.at(-1) ?? 24) * 0.55)) * box.maxLines : 0);
  const first = shotBoxes(brief, { mediaIds: [], codePaths: [] }, 0, 3);
  const statement = shotBoxes(brief, { mediaIds: [], codePaths: [] }, 1, 3);
  const picture = shotBoxes(brief, { mediaIds: brief.media.slice(0, 1).map((m) => m.id), codePaths: [] }, 1, 3);
  return [
    `On screen (a ${aspect} frame), at the smallest type: the first shot's title about ${holds(first.title)} characters and its text ${holds(first.text)};`,
    `a shot without media or code shows its text as a statement (about ${holds(statement.text)}) under its title as a label (${holds(statement.title)});`,
    `a shot with media or code shows its title as a heading (about ${holds(picture.title)}) and its text as a caption (${holds(picture.text)}).`,
  ].join(' ');
}

/** The brief with the context and code sources trimmed to what a model can read usefully. */
export function briefForModel(brief: Brief) {
  let budget = CODE_BUDGET_CHARS;
  const ranked = rankChanges(brief.code);
  const ordered = [...ranked, ...brief.code.filter((file) => !ranked.includes(file))];
  const code = ordered.map((file) => {
    const excerpt = excerptOf(file, Math.min(EXCERPT_CHARS, budget));
    budget -= excerpt?.length ?? 0;
    const { source: _source, patch: _patch, sourceOmitted: _omitted, ...meta } = file;
    return { ...meta, ...(excerpt ? { excerpt } : { excerptOmitted: true }) };
  });
  return { ...brief, context: brief.context && clip(brief.context, CONTEXT_CHARS), code };
}

function excerptOf(file: CodeFile, room: number): string | null {
  const text = file.patch || file.source;
  if (!text || room < 200) return null;
  return clip(text, room);
}

function pitchForModel(pitch: Pitch) {
  const { createdAt: _createdAt, estimatedCredits: _credits, ...rest } = pitch;
  return rest;
}

/** What the model is told after an answer that cannot be used. */
export function correction(problems: string[]): string {
  return `Your previous answer cannot be used:\n${problems.slice(0, 20).map((p) => `- ${p}`).join('\n')}\nAnswer again with the complete, corrected JSON object.`;
}
