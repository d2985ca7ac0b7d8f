/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import type { DeliveredProject } from '@vp/projects';
import { fieldValue, ticked, TRANSITIONS, type EditIssue } from '@vp/render/edit';
import { Csrf, Page, type Chrome } from '../views/layout.tsx';
import { editRules, stored, type StoredComposition } from './composition.ts';
import { placeOf, placedOnForm } from './edit-places.ts';

/** A form sent back: what was typed, and why it was not saved. */
export type EditState = { values: Record<string, unknown>; issues: EditIssue[]; problem: string };

const COLOURS = [['primaryColor', 'Accent'], ['backgroundColor', 'Background']] as const;

/** The form's controls, each showing what was typed (after a refusal) or what is stored, and its refusal beside it. */
function controls(edit: EditState | undefined) {
  const issues = new Map((edit?.issues ?? []).map((issue) => [issue.path, issue.message]));
  const typed = (name: string, stored: unknown) => {
    const value = fieldValue(edit?.values, name);
    return typeof value === 'string' ? value : stored === null || stored === undefined ? '' : String(stored);
  };
  const field = (name: string, label: string, control: Child) => (
    <label>{label}{control}{issues.has(name) ? <span class="field-problem" role="alert">{issues.get(name)}</span> : null}</label>
  );
  return {
    issues, typed, field,
    text: (name: string, label: string, stored: unknown, max: number) => field(name, label, <input name={name} value={typed(name, stored)} maxlength={max} />),
    area: (name: string, label: string, stored: unknown, max: number) => field(name, label, <textarea name={name} maxlength={max}>{typed(name, stored)}</textarea>),
    whole: (name: string, label: string, stored: unknown, min: number, max: number) =>
      field(name, label, <input name={name} type="number" inputmode="numeric" min={min} max={max} step={1} value={typed(name, stored)} />),
    /** A select showing what was sent when it is one of `options`, else what is stored. */
    choice: (name: string, label: string, options: readonly string[], stored: string | undefined) => {
      const sent = typed(name, stored);
      const chosen = options.includes(sent) ? sent : stored;
      return field(name, label, <select name={name}>{options.map((option) => <option selected={option === chosen}>{option}</option>)}</select>);
    },
  };
}

/**
 * `/projects/{id}/edit`: saves the next version of a project from its newest one: the colours,
 * each scene's words, length, transition in, place and whether it stays, a voiceover line for a
 * scene without one (when the video speaks), each voiceover line, each medium's address, and the
 * music bed (when the video had one). Field names are the paths of `CompositionEdit`
 * (`scenes.2.title`), so each refusal is shown beside its field; after a refusal the page comes
 * back with what was typed. It never reloads itself as the project's page does.
 */
export function EditPage(props: { chrome: Chrome; project: DeliveredProject; edit?: EditState }) {
  const { project, edit } = props;
  const newest = project.versions[0]!;
  const composition = stored(newest);
  const rules = editRules(project);
  const c = controls(edit);
  const projectUrl = `/projects/${project.id}`;
  const unplaced = [...c.issues].filter(([path]) => !placedOnForm(path, composition));
  return (
    <Page title={`Edit · ${project.title}`} nonce={props.chrome.nonce} chrome={props.chrome}>
      <h1>{project.title}</h1>
      <p class="muted"><a href={projectUrl}>The project</a> · editing version {newest.version} · {composition.width ?? 0}×{composition.height ?? 0}</p>
      {edit ? (
        <div class="card notice problem" role="alert">
          <p>{edit.problem}</p>
          {unplaced.length ? <ul>{unplaced.map(([path, message]) => <li>{placeOf(path)}: {message}</li>)}</ul> : null}
        </div>
      ) : null}
      <form method="post" action={`${projectUrl}/versions`} class="card">
        <Csrf token={props.chrome.csrf} />
        <input type="hidden" name="baseVersion" value={String(newest.version)} />
        <fieldset><legend>Colours</legend><div class="grid">
          {COLOURS.map(([key, label]) => c.field(`brand.${key}`, label, <input type="color" name={`brand.${key}`} value={c.typed(`brand.${key}`, composition.brand?.[key])} />))}
        </div><p class="muted">The text's colour follows the background, so that it stays readable.</p></fieldset>
        <Scenes c={c} composition={composition} edit={edit} speaks={rules.voice !== null} />
        <Media c={c} composition={composition} />
        <Voiceover c={c} composition={composition} />
        {rules.music ? (
          <fieldset><legend>Music</legend><div class="grid">
            {c.choice('music.bed', 'Music bed', ['on', 'off'], composition.audio?.music ? 'on' : 'off')}
            {c.whole('music.gainDb', 'Volume (dB)', composition.audio?.music?.gainDb, -40, 0)}
          </div><p class="muted">0 dB is as loud as the bed is made; the music plays under the voiceover and effects. Switched back on with the volume left empty, it plays at its first version's level.</p></fieldset>
        ) : null}
        <p class="muted">Give a scene another place to move it there; a removed scene's voiceover line goes with it. A cut takes no time; another transition left at 0 ms, or next to a new neighbour, takes its usual length. Scenes may be shortened or lengthened; together they last at most {(rules.maxDurationMs / 1000).toFixed(1)} s, the length the video's credits paid for.</p>
        <button type="submit">Save as version {newest.version + 1} and export it</button>
      </form>
    </Page>
  );
}

type Controls = ReturnType<typeof controls>;

function Scenes({ c, composition, edit, speaks }: { c: Controls; composition: StoredComposition; edit?: EditState; speaks: boolean }) {
  const scenes = composition.scenes ?? [];
  const spoken = new Set((composition.audio?.voiceover ?? []).map((line) => line.sceneId));
  return (
    <>
      {scenes.map((scene, i) => (
        <fieldset><legend>Scene {i + 1} · {scene.kind ?? ''}</legend>
          {c.text(`scenes.${i}.title`, 'Heading', scene.title, 200)}
          {c.area(`scenes.${i}.text`, 'Text', scene.text, 500)}
          <div class="grid">
            {c.whole(`scenes.${i}.durationMs`, 'Length (ms)', scene.durationMs, 300, 120_000)}
            {i === 0 ? null : c.choice(`scenes.${i}.transition.kind`, 'Transition in', TRANSITIONS, scene.transition?.kind)}
            {i === 0 ? null : c.whole(`scenes.${i}.transition.durationMs`, 'Transition (ms)', scene.transition?.durationMs, 0, 2000)}
            {c.whole(`scenes.${i}.position`, 'Place', i + 1, 1, scenes.length)}
          </div>
          <label class="check"><input name={`scenes.${i}.remove`} type="checkbox" checked={edit ? ticked(fieldValue(edit.values, `scenes.${i}.remove`)) : false} /> Remove this scene</label>
          {c.issues.has(`scenes.${i}.remove`) ? <span class="field-problem" role="alert">{c.issues.get(`scenes.${i}.remove`)}</span> : null}
          {speaks && !spoken.has(scene.id) ? c.area(`scenes.${i}.voiceover`, 'Voiceover (a new line)', '', 1000) : null}
        </fieldset>
      ))}
    </>
  );
}

function Media({ c, composition }: { c: Controls; composition: StoredComposition }) {
  const media = composition.media ?? [];
  if (!media.length) return null;
  return (
    <fieldset><legend>Media</legend>
      {media.map((asset, i) => c.field(`media.${i}.url`, `${asset.kind === 'video' ? 'Clip' : 'Picture'} ‘${asset.name ?? ''}’`,
        <input name={`media.${i}.url`} type="url" maxlength={4000} value={c.typed(`media.${i}.url`, asset.url)} />))}
      <p class="muted">Another address shows another picture or clip of the same kind in its place. It is fetched when the version is exported, as a brief's media are; one that cannot be used fails that export, and says why.</p>
    </fieldset>
  );
}

function Voiceover({ c, composition }: { c: Controls; composition: StoredComposition }) {
  const lines = composition.audio?.voiceover ?? [];
  if (!lines.length) return null;
  const scenesById = new Map((composition.scenes ?? []).map((scene, i) => [scene.id, i]));
  return (
    <fieldset><legend>Voiceover</legend>
      {lines.map((line, i) => c.area(`voiceover.${i}`, `Line ${i + 1}, scene ${(scenesById.get(line.sceneId) ?? 0) + 1}`, line.text, 1000))}
      <p class="muted">Empty a line to drop it.</p>
    </fieldset>
  );
}
