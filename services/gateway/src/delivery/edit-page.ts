import { fieldValue, ticked, TRANSITIONS, type EditIssue } from '@vp/render/edit';
import { html, page, type Markup } from '../http/html.ts';

/** A form sent back: what was typed, and why it was not saved. */
export type EditState = { values: Record<string, unknown>; issues: EditIssue[]; problem: string };

/** The stored composition, read loosely: the page shows what it finds. */
export type StoredComposition = {
  width?: number; height?: number; durationMs?: number;
  brand?: { primaryColor?: string; backgroundColor?: string };
  media?: { kind?: string; url?: string; name?: string }[];
  scenes?: { id?: string; kind?: string; title?: string | null; text?: string | null; durationMs?: number; transition?: { kind?: string; durationMs?: number } }[];
  audio?: {
    voiceover?: { sceneId?: string; text?: string; voice?: string; wordsPerMinute?: number }[]; sfx?: unknown[];
    music?: { key?: string; bpm?: number; progression?: string[]; gainDb?: number } | null;
  };
};

const COLOURS = [['primaryColor', 'Accent'], ['backgroundColor', 'Background']] as const;

/**
 * The page that saves the next version of a project from its newest one: the colours, each
 * scene's words, length, transition in, place and whether it stays, a voiceover line for a scene
 * without one (when the video speaks), each voiceover line, each medium's address, and the music
 * bed (when the video had one). Field names are the paths
 * of `CompositionEdit` (`scenes.2.title`), so each refusal is shown beside its field. After a
 * refusal the page comes back with what was typed. A page of its own, which never refreshes
 * itself as the project's page does while an export is made.
 */
export function editPage(input: {
  title: string; projectUrl: string; baseVersion: number; composition: StoredComposition; maxDurationMs: number; edit?: EditState;
  /** Whether the video has a voiceover (its format asked for one): scenes without a line may get one. */
  speaks: boolean;
  /** Whether version 1 had a music bed (its format asked for one): it may be switched off and on again. */
  hasMusic: boolean;
}): string {
  const { composition, edit } = input;
  const issues = new Map((edit?.issues ?? []).map((issue) => [issue.path, issue.message]));
  const typed = (name: string, stored: unknown) => {
    const value = fieldValue(edit?.values, name);
    return typeof value === 'string' ? value : stored === null || stored === undefined ? '' : String(stored);
  };
  const problem = (name: string) => (issues.has(name) ? html`<span class="field-problem" role="alert">${issues.get(name)}</span>` : null);
  const field = (name: string, label: string, control: Markup) => html`<label>${label}${control}${problem(name)}</label>`;
  const text = (name: string, label: string, stored: unknown, max: number) =>
    field(name, label, html`<input name="${name}" value="${typed(name, stored)}" maxlength="${max}">`);
  const area = (name: string, label: string, stored: unknown, max: number) =>
    field(name, label, html`<textarea name="${name}" maxlength="${max}">${typed(name, stored)}</textarea>`);
  const whole = (name: string, label: string, stored: unknown, min: number, max: number) =>
    field(name, label, html`<input name="${name}" type="number" inputmode="numeric" min="${min}" max="${max}" step="1" value="${typed(name, stored)}">`);
  /** A select showing what was sent when it is one of `options`, else what is stored. */
  const choice = (name: string, label: string, options: readonly string[], stored: string | undefined) => {
    const sent = typed(name, stored);
    const chosen = options.includes(sent) ? sent : stored;
    return field(name, label, html`<select name="${name}">${options.map((option) => html`<option${option === chosen ? html` selected` : null}>${option}</option>`)}</select>`);
  };

  const count = composition.scenes?.length ?? 0;
  const spoken = new Set((composition.audio?.voiceover ?? []).map((line) => line.sceneId));
  const scenes = (composition.scenes ?? []).map((scene, i) => {
    const removed = edit ? ticked(fieldValue(edit.values, `scenes.${i}.remove`)) : false;
    return html`<fieldset><legend>Scene ${i + 1} · ${scene.kind ?? ''}</legend>
  ${text(`scenes.${i}.title`, 'Heading', scene.title, 200)}
  ${area(`scenes.${i}.text`, 'Text', scene.text, 500)}
  <div class="row">
    ${whole(`scenes.${i}.durationMs`, 'Length (ms)', scene.durationMs, 300, 120_000)}
    ${i === 0 ? null : html`${choice(`scenes.${i}.transition.kind`, 'Transition in', TRANSITIONS, scene.transition?.kind)}
    ${whole(`scenes.${i}.transition.durationMs`, 'Transition (ms)', scene.transition?.durationMs, 0, 2000)}`}
  </div>
  <div class="row">
    ${whole(`scenes.${i}.position`, 'Place', i + 1, 1, count)}
    ${field(`scenes.${i}.remove`, 'Remove this scene', html`<input name="scenes.${i}.remove" type="checkbox"${removed ? html` checked` : null}>`)}
  </div>
  ${input.speaks && !spoken.has(scene.id)
    ? area(`scenes.${i}.voiceover`, 'Voiceover (a new line)', '', 1000)
    : null}
</fieldset>`;
  });
  const scenesById = new Map((composition.scenes ?? []).map((scene, i) => [scene.id, i]));
  const voiceover = (composition.audio?.voiceover ?? []).map((line, i) =>
    area(`voiceover.${i}`, `Line ${i + 1}, scene ${(scenesById.get(line.sceneId) ?? 0) + 1}`, line.text, 1000));
  const music = input.hasMusic
    ? html`<fieldset><legend>Music</legend><div class="row">
    ${choice('music.bed', 'Music bed', ['on', 'off'], composition.audio?.music ? 'on' : 'off')}
    ${whole('music.gainDb', 'Volume (dB)', composition.audio?.music?.gainDb, -40, 0)}
  </div><p class="muted">0 dB is as loud as the bed is made; the music plays under the voiceover and effects. Switched back on with the volume left empty, it plays at its first version's level.</p></fieldset>`
    : null;
  const media = (composition.media ?? []).map((asset, i) =>
    field(`media.${i}.url`, `${asset.kind === 'video' ? 'Clip' : 'Picture'} ‘${asset.name ?? ''}’`, html`<input name="media.${i}.url" type="url" maxlength="4000" value="${typed(`media.${i}.url`, asset.url)}">`));
  const unplaced = [...issues].filter(([path]) => !isField(path, composition));

  return page({
    title: `Edit · ${input.title}`,
    body: html`<h1>${input.title}</h1>
<p class="muted"><a href="${input.projectUrl}">The project</a> · editing version ${input.baseVersion} · ${(composition.width ?? 0)}×${(composition.height ?? 0)}</p>
${edit ? html`<div class="card notice problem" role="alert"><p>${edit.problem}</p>${unplaced.length ? html`<ul>${unplaced.map(([path, message]) => html`<li>${placeOf(path)}: ${message}</li>`)}</ul>` : null}</div>` : null}
<form method="post" action="${input.projectUrl}/versions" class="card">
  <input type="hidden" name="baseVersion" value="${input.baseVersion}">
  <fieldset><legend>Colours</legend><div class="row">
    ${COLOURS.map(([key, label]) => field(`brand.${key}`, label, html`<input type="color" name="brand.${key}" value="${typed(`brand.${key}`, composition.brand?.[key])}">`))}
  </div><p class="muted">The text's colour follows the background, so that it stays readable.</p></fieldset>
  ${scenes}
  ${media.length ? html`<fieldset><legend>Media</legend>${media}<p class="muted">Another address shows another picture or clip of the same kind in its place. It is fetched when the version is exported, as a brief's media are; one that cannot be used fails that export, and says why.</p></fieldset>` : null}
  ${voiceover.length ? html`<fieldset><legend>Voiceover</legend>${voiceover}<p class="muted">Empty a line to drop it.</p></fieldset>` : null}
  ${music}
  <p class="muted">Give a scene another place to move it there; a removed scene's voiceover line goes with it. A cut takes no time; another transition left at 0 ms, or next to a new neighbour, takes its usual length. Scenes may be shortened or lengthened; together they last at most ${(input.maxDurationMs / 1000).toFixed(1)} s, the length the video's credits paid for.</p>
  <button type="submit">Save as version ${input.baseVersion + 1} and export it</button>
</form>`,
  });
}

/** Whether the form has a field of this name, where its refusal is shown beside it. */
function isField(path: string, composition: StoredComposition): boolean {
  const scene = /^scenes\.(\d+)\.(title|text|durationMs|transition\.kind|transition\.durationMs|position|remove|voiceover)$/.exec(path);
  if (scene) return Number(scene[1]) < (composition.scenes?.length ?? 0) && (Number(scene[1]) > 0 || !scene[2]!.startsWith('transition'));
  const line = /^voiceover\.(\d+)$/.exec(path);
  if (line) return Number(line[1]) < (composition.audio?.voiceover?.length ?? 0);
  const medium = /^media\.(\d+)\.url$/.exec(path);
  if (medium) return Number(medium[1]) < (composition.media?.length ?? 0);
  return /^brand\.(primaryColor|backgroundColor)$|^music\.(bed|gainDb)$/.test(path);
}

/** What a refusal shown above the form is about, in a person's words. */
function placeOf(path: string): string {
  const scene = /^scenes\.(\d+)/.exec(path);
  const line = /^voiceover\.(\d+)/.exec(path);
  if (scene) return `Scene ${Number(scene[1]) + 1}`;
  if (line) return `Voiceover line ${Number(line[1]) + 1}`;
  if (path.startsWith('music.')) return 'The music';
  const medium = /^media\.(\d+)/.exec(path);
  if (medium) return `Medium ${Number(medium[1]) + 1}`;
  return path === 'durationMs' ? 'The video' : path === 'scenes' ? 'The scenes' : path === '' ? 'The form' : path;
}
