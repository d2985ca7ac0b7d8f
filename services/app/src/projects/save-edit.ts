import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Db, Export } from '@vp/db';
import { MAX_PROJECT_VERSIONS, queueExport, saveVersion, type DeliveredProject } from '@vp/projects';
import { editComposition, rebaseEdit, type EditIssue } from '@vp/render/edit';
import { asStored, editRules, exportsBusy } from './composition.ts';

/** What became of a posted edit form. */
export type EditOutcome =
  /** Saved (or nothing changed): `started` is the export to start, if any. */
  | { done: true; started: Export | null }
  /** Refused: the form comes back with `values`, the reason above it and each issue beside its field. */
  | { done: false; status: 400 | 409; project: DeliveredProject; values: Record<string, unknown>; issues: EditIssue[]; problem: string };

/**
 * The edit form of a delivered project, posted: saves the next version and queues its export. A
 * form that changes nothing exports the newest version again; the same form sent twice (a double
 * click) is saved once. A form made from an older version than the newest saves nothing and comes
 * back with its changes over the newest: an edit never lands on a version its author did not see.
 */
export async function saveEdit(
  db: Db, found: DeliveredProject, form: Record<string, unknown>, reload: () => Promise<DeliveredProject | null>,
): Promise<EditOutcome> {
  const { baseVersion, ...changes } = form;
  const [newest, first] = [found.versions[0]!, found.versions.at(-1)!];
  const from = found.versions.find((version) => String(version.version) === baseVersion);
  const refused = (status: 400 | 409, problem: string, issues: EditIssue[] = []): EditOutcome =>
    ({ done: false, status, project: found, values: { ...changes, baseVersion }, issues, problem });
  if (!from) return refused(400, 'Nothing was saved: the form names no version of this project.', [{ path: 'baseVersion', message: `The version the changes were made to: ${first.version} to ${newest.version} here.` }]);

  const rules = editRules(found);
  const stale = async (): Promise<EditOutcome> => {
    const now = (await reload()) ?? found;
    const same = editComposition(from.composition, changes, rules);
    if (!('issues' in same) && isDeepStrictEqual(asStored(same.composition), now.versions[0]!.composition)) return { done: true, started: null };
    const { values, lost } = rebaseEdit(from.composition, now.versions[0]!.composition, changes);
    const dropped = lost === 1 ? ' One of your changes was to a scene, voiceover line or medium it dropped.' : lost ? ` ${lost} of your changes were to scenes, voiceover lines or media it dropped.` : '';
    const problem = 'Another version was saved since this page was opened. Nothing was saved: your changes are shown below, over the newest version.';
    return { done: false, status: 409, project: now, values, issues: [], problem: problem + dropped };
  };
  if (from !== newest) return stale();

  const result = editComposition(newest.composition, changes, rules);
  if ('issues' in result) return refused(400, 'Nothing was saved: see what to change below.', result.issues);
  const busy = () => refused(409, exportsBusy('Nothing was saved: send it again'));
  if (isDeepStrictEqual(asStored(result.composition), newest.composition)) {
    const made = await queueExport(db, { id: randomUUID(), projectId: found.id, version: newest.version });
    return made === 'busy' ? busy() : { done: true, started: made };
  }
  if (found.versions.length >= MAX_PROJECT_VERSIONS) {
    return refused(409, `This project has ${MAX_PROJECT_VERSIONS} versions, as many as a project keeps. Nothing was saved; any version can still be exported again.`);
  }
  const made = await saveVersion(db, { projectId: found.id, baseVersion: newest.version, composition: result.composition, exportId: randomUUID() });
  if (made === 'stale') return stale();
  if (made === 'busy') return busy();
  return { done: true, started: made };
}
