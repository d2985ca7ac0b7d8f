import { fieldValue, sameText, setField, ticked } from './edit-form.ts';
import { parseComposition, type Composition } from './schema.ts';

/**
 * What a form made from `stored` changes, moved onto `newer`, a version saved since the form was
 * opened: the fields whose values differ from `stored`'s, at their place in `newer` (a scene's
 * fields follow the scene, a voiceover line follows its scene, a medium's address its medium). A browser sends every field, so
 * carrying the untouched ones too would undo what `newer` changed. `lost` counts the changed
 * fields whose scene, line or medium `newer` dropped.
 */
export function rebaseEdit(stored: unknown, newer: unknown, input: unknown): { values: Record<string, unknown>; lost: number } {
  const [from, to] = [parseComposition(stored), parseComposition(newer)];
  const values: Record<string, unknown> = {};
  let lost = 0;
  for (const [path, kept] of editableFields(from)) {
    const sent = fieldValue(input, path);
    if (sent === undefined || (typeof sent === 'string' && sameText(path, sent, kept === null ? null : String(kept)))) continue;
    const [, list, index, rest] = /^(scenes|voiceover|media)\.(\d+)(.*)$/.exec(path) ?? [];
    if (!list) {
      setField(values, path, sent);
      continue;
    }
    const keys = LIST_KEYS[list as keyof typeof LIST_KEYS];
    const place = keys(to).indexOf(keys(from)[Number(index)]!);
    // A scene removed, or a line emptied, here and gone there: what the form wanted holds.
    const wantedGone = list === 'scenes' ? ticked(fieldValue(input, `scenes.${index}.remove`)) : list === 'voiceover' && typeof sent === 'string' && !sent.trim();
    if (place < 0) lost += wantedGone ? 0 : 1;
    // A place beyond the newer version's scenes is its last: the page allows no more.
    else setField(values, `${list}.${place}${rest}`, rest === '.position' && Number(sent) > to.scenes.length ? String(to.scenes.length) : sent);
  }
  return { values, lost };
}

/** What an item of each list a form edits is known by from one version to another: a line by its scene. */
const LIST_KEYS = {
  scenes: (composition: Composition) => composition.scenes.map((scene) => scene.id),
  voiceover: (composition: Composition) => composition.audio.voiceover.map((line) => line.sceneId),
  media: (composition: Composition) => composition.media.map((asset) => asset.id),
};

/** Every field an edit can change, by its path, with the value `composition` has there. */
function editableFields(composition: Composition): [string, string | number | null][] {
  return [
    ['brand.primaryColor', composition.brand.primaryColor],
    ['brand.backgroundColor', composition.brand.backgroundColor],
    ...composition.scenes.flatMap((scene, i): [string, string | number | null][] => [
      [`scenes.${i}.title`, scene.title], [`scenes.${i}.text`, scene.text], [`scenes.${i}.durationMs`, scene.durationMs],
      [`scenes.${i}.transition.kind`, scene.transition.kind], [`scenes.${i}.transition.durationMs`, scene.transition.durationMs],
      [`scenes.${i}.position`, i + 1], [`scenes.${i}.remove`, null], [`scenes.${i}.voiceover`, null],
    ]),
    ...composition.audio.voiceover.map((line, i): [string, string] => [`voiceover.${i}`, line.text]),
    ...composition.media.map((asset, i): [string, string] => [`media.${i}.url`, asset.url]),
    ['music.bed', composition.audio.music ? 'on' : 'off'],
    ['music.gainDb', composition.audio.music?.gainDb ?? null],
  ];
}
