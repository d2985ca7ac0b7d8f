import { brandStyle } from './brand.ts';
import { transitionEffects, transitionInto, transitionMsBetween } from './choreography.ts';
import { CompositionEdit, sameText, type EditIssue } from './edit-form.ts';
import { wordsOffScreen, type TypedWords } from './edit-fit.ts';
import { editedVoiceover, seconds, type EditedWords } from './edit-voiceover.ts';
import { Composition, parseComposition, retime, TRANSITIONS, type Music, type Scene, type VoiceLine } from './schema.ts';

// What the gateway's edit pages use: the form's fields, this edit, and the rebase of a stale form.
export { CompositionEdit, fieldValue, ticked, type EditIssue } from './edit-form.ts';
export { rebaseEdit } from './rebase-edit.ts';
/** The kinds of transition a form offers. */
export { TRANSITIONS };
export type { Music };

export type EditOptions = { maxDurationMs: number; soundEffects: boolean; voice?: Pick<VoiceLine, 'voice' | 'wordsPerMinute'> | null; music?: Music | null };

/**
 * The next version of a project: the edit applied to the `stored` one, the scenes kept in their
 * new order (one next to a new neighbour, its transition in left as it was, takes the composer's
 * length there) and retimed, and the sound cues that follow the picture placed again (each voice
 * line after its scene's cut, with `soundEffects` a whoosh on each transition), as the composer
 * places them. A new line is spoken in `voice` (version 1's); without it, the video has no
 * voiceover and takes none. A music bed switched back on is `music` (version 1's); without it,
 * the video has none and takes none. Text sent back as a browser sends the stored text stays as stored:
 * an untouched form changes nothing. Refused with every issue when the result is not a valid
 * project, or lasts longer than `maxDurationMs` (the length the credits paid for).
 */
export function editComposition(stored: unknown, input: unknown, options: EditOptions): { composition: Composition } | { issues: EditIssue[] } {
  const base = parseComposition(stored);
  const parsed = parseEdit(base, input);
  if ('issues' in parsed) return parsed;
  const { edit } = parsed;
  const words: EditedWords = (path, sent, kept) => (sent === undefined || sameText(path, sent, kept) ? kept : sent || null);
  const order = sceneOrder(base.scenes.length, edit.scenes ?? {});
  if (!order.length) return { issues: [{ path: 'scenes', message: 'Keep at least one scene.' }] };
  const scenes = reorderedScenes(base, edit, order, words);
  const media = base.media.map((asset, i) => ({ ...asset, url: edit.media?.[i]?.url ?? asset.url }));
  const timed = retime({ ...base, brand: recoloured(base, edit), scenes, media: mediaStillPlaced({ ...base, media }, scenes) });
  const issues: EditIssue[] = [];
  const voiceover = editedVoiceover(base, timed, edit, order, words, options.voice, issues);
  const sfx = options.soundEffects ? transitionEffects(timed.scenes) : [];
  const music = musicAfter(base.audio.music, edit.music, options.music ?? null, issues);
  const next = { ...timed, audio: { ...timed.audio, voiceover, music, sfx } };

  // Issues are named by the scene's index on the form, not its new place.
  const onForm = (path: PropertyKey[]) => (path[0] === 'scenes' && typeof path[1] === 'number' ? ['scenes', order[path[1]], ...path.slice(2)] : path).join('.');
  const checked = Composition.safeParse(next);
  if (!checked.success) issues.push(...checked.error.issues.map((issue) => ({ path: onForm(issue.path), message: issue.message })));
  issues.push(...wordsOffScreen(next, typedWords(base, edit, words)));
  next.scenes.forEach((scene, place) => {
    // Words are all a scene of these kinds shows; without them its frames are blank, and the review refuses the video.
    if (WORDS_ONLY.has(scene.kind) && !scene.title && !scene.text) issues.push({ path: onForm(['scenes', place, 'title']), message: 'This scene shows only words: give it a heading or a text.' });
  });
  if (next.durationMs > options.maxDurationMs) {
    issues.push({
      path: 'durationMs',
      message: `The scenes add up to ${seconds(next.durationMs)}; the video may last at most ${seconds(options.maxDurationMs)}, the length its credits paid for.`,
    });
  }
  return checked.success && !issues.length ? { composition: checked.data } : { issues };
}

/** The headings and texts this edit changes, by scene. */
function typedWords(base: Composition, edit: CompositionEdit, words: EditedWords): TypedWords[] {
  return Object.entries(edit.scenes ?? {}).flatMap(([i, change]) => {
    const scene = base.scenes[Number(i)]!;
    return (['title', 'text'] as const).flatMap((field) => {
      const path = `scenes.${i}.${field}`;
      const now = words(path, change[field], scene[field]);
      return now && now !== scene[field] ? [{ sceneId: scene.id, field, path }] : [];
    });
  });
}

/** The form's fields parsed, each naming only scenes, lines and media the project has. */
function parseEdit(base: Composition, input: unknown): { edit: CompositionEdit } | { issues: EditIssue[] } {
  const parsed = CompositionEdit.safeParse(input);
  if (!parsed.success) return { issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) };
  const edit = parsed.data;
  const unknown = [
    ...Object.keys(edit.scenes ?? {}).filter((i) => !base.scenes[Number(i)]).map((i) => `scenes.${i}`),
    ...Object.keys(edit.voiceover ?? {}).filter((i) => !base.audio.voiceover[Number(i)]).map((i) => `voiceover.${i}`),
    ...Object.keys(edit.media ?? {}).filter((i) => !base.media[Number(i)]).map((i) => `media.${i}`),
  ];
  if (unknown.length) return { issues: unknown.map((path) => ({ path, message: 'The project has nothing at this index.' })) };
  return { edit };
}

/** The scenes kept, in their new order, with their words, lengths and transitions in as edited. */
function reorderedScenes(base: Composition, edit: CompositionEdit, order: number[], words: EditedWords): Scene[] {
  const lengths = base.scenes.map((scene, i) => edit.scenes?.[i]?.durationMs ?? scene.durationMs);
  return order.reduce<Scene[]>((placed, i, place) => {
    const scene = base.scenes[i]!;
    const change = edit.scenes?.[i];
    const before = order[place - 1];
    // A scene that follows the same one as before keeps its transition in unless it was changed.
    const samePredecessor = place === 0 ? i === 0 : before === i - 1;
    if (!change && samePredecessor) return [...placed, scene];
    const edited = { ...scene, title: words(`scenes.${i}.title`, change?.title, scene.title), text: words(`scenes.${i}.text`, change?.text, scene.text), durationMs: lengths[i]! };
    if (before === undefined) return [...placed, { ...edited, transition: i === 0 ? scene.transition : { kind: 'cut', durationMs: 0 } }];
    // The page offers no transition for the scene made first: moved later, it takes the composer's.
    const into = i > 0 ? change?.transition : undefined;
    const neighbours: [number, number] = [lengths[before]!, lengths[i]!];
    const kind = into?.kind ?? (i === 0 ? transitionInto(scene.kind, placed.at(-1)!.transition.kind, neighbours).kind : scene.transition.kind);
    // Next to a new neighbour, the stored length sent back (a page sends every field) was not typed.
    const typedMs = samePredecessor || into?.durationMs !== scene.transition.durationMs ? into?.durationMs : undefined;
    const transitionMs = typedMs ?? (samePredecessor ? scene.transition.durationMs : 0);
    // A cut takes no time: both scenes would be on screen at once. Another kind left at 0
    // (chosen for a cut, or next to a new neighbour) takes the length the composer gives a transition there.
    return [...placed, { ...edited, transition: { kind, durationMs: kind === 'cut' ? 0 : transitionMs || transitionMsBetween(neighbours) } }];
  }, []);
}

/** New colours as the composer makes a brief's readable: the text's from the background, an accent lost in it lifted. */
function recoloured(base: Composition, edit: CompositionEdit): Composition['brand'] {
  const { primaryColor = base.brand.primaryColor, backgroundColor = base.brand.backgroundColor } = edit.brand ?? {};
  if (primaryColor === base.brand.primaryColor && backgroundColor === base.brand.backgroundColor) return base.brand;
  return { ...brandStyle({ ...base.brand, primaryColor, backgroundColor }), name: base.brand.name, fontFamily: base.brand.fontFamily };
}

/** The music bed as edited: switched off, or on (as it was, else as version 1 had it) at the level asked. */
function musicAfter(stored: Music | null, change: CompositionEdit['music'], first: Music | null, issues: EditIssue[]): Music | null {
  const bed = change?.bed ?? (stored ? 'on' : 'off');
  if (bed === 'off') return null;
  const made = stored ?? first;
  if (!made) {
    issues.push({ path: 'music.bed', message: 'This video has no music bed: its format asked for none.' });
    return null;
  }
  return { ...made, gainDb: change?.gainDb ?? made.gainDb };
}

/**
 * The indexes of the scenes kept, in their new order: by the place each was given, its own when
 * none. Given another scene's place, a scene moving earlier goes just before that scene, and one
 * moving later just after it, as when it is dragged there.
 */
function sceneOrder(count: number, changes: CompositionEdit['scenes'] & object): number[] {
  const key = (i: number) => {
    const place = changes[i]?.position ?? i + 1;
    return place === i + 1 ? place : place + (place < i + 1 ? -0.5 : 0.5);
  };
  return [...Array(count).keys()].filter((i) => !changes[i]?.remove).sort((a, b) => key(a) - key(b) || a - b);
}

/** The project's media without those only removed scenes showed. */
function mediaStillPlaced(base: Composition, scenes: Scene[]): Composition['media'] {
  const placed = (list: Scene[]) => new Set(list.flatMap((scene) => scene.media.map((m) => m.assetId)));
  const [before, after] = [placed(base.scenes), placed(scenes)];
  return base.media.filter((asset) => after.has(asset.id) || !before.has(asset.id));
}

const WORDS_ONLY = new Set<Scene['kind']>(['title', 'text', 'outro']);
