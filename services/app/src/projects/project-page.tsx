/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Export } from '@vp/db';
import { formatBytes, formatDuration } from '@vp/net';
import { MAX_PROJECT_VERSIONS, shareUrl, type DeliveredProject } from '@vp/projects';
import { Csrf, Notice, Page, Problem, when, type Chrome } from '../views/layout.tsx';
import { stored } from './composition.ts';

export type ProjectView = {
  project: DeliveredProject;
  /** Editors and owners save versions and export; viewers only read. */
  canWrite: boolean;
  appUrl: string;
  notice?: string | null;
  /** Why what was asked was not done, shown above the versions. */
  problem?: string;
};

/** Following an export: one being made, or queued and not known to be stuck (an error says it did not start). */
const following = (project: DeliveredProject) =>
  project.versions.some((v) => v.exports.some((e) => e.status === 'rendering' || (e.status === 'queued' && !e.error)));

/**
 * `/projects/{id}` (a delivery's `editUrl`): every version's scenes with its exports, a button
 * to export it again and, for the newest, its whole composition and a link to its edit page.
 * While an export is made the page reloads itself every 5 s.
 */
export function ProjectPage(props: { chrome: Chrome; view: ProjectView }) {
  const { project, canWrite } = props.view;
  const base = `/projects/${project.id}`;
  return (
    <Page title={`${project.title} · Project`} nonce={props.chrome.nonce} chrome={props.chrome} refreshSeconds={following(project) ? 5 : undefined}>
      <p class="muted">{project.productionId ? <a href={`/productions/${project.productionId}`}>The production</a> : <a href="/">Productions</a>}</p>
      <h1>{project.title}</h1>
      <p class="muted">Project · created {when(project.createdAt)}{canWrite ? null : ' · you may watch and read it; editors and owners edit and export it'}</p>
      <Notice message={props.view.notice} />
      <Problem message={props.view.problem} />
      {project.versions.map((version, index) => {
        const composition = stored(version);
        const scenes = composition.scenes ?? [];
        return (
          <section class="card" aria-labelledby={`v${version.version}`}>
            <h2 id={`v${version.version}`}>Version {version.version}</h2>
            <p class="muted">{composition.width ?? '?'}×{composition.height ?? '?'} · {formatDuration(composition.durationMs ?? 0)} · {scenes.length} scene{scenes.length === 1 ? '' : 's'} · saved {when(version.createdAt)}</p>
            {canWrite ? (
              <form method="post" action={`${base}/versions/${version.version}/exports`}>
                <Csrf token={props.chrome.csrf} />
                <button type="submit">Export version {version.version} again</button>
              </form>
            ) : null}
            <div class="table-wrap"><table>
              <thead><tr><th>#</th><th>Scene</th><th>Length</th></tr></thead>
              <tbody>{scenes.map((scene, i) => (
                <tr><td>{i + 1}</td><td><strong>{scene.title ?? scene.kind ?? ''}</strong>{scene.text ? <><br /><span class="muted">{scene.text}</span></> : null}</td><td>{formatDuration(scene.durationMs ?? 0)}</td></tr>
              ))}</tbody>
            </table></div>
            {index === 0 ? <Newest view={props.view} version={version.version} composition={version.composition} /> : null}
            <h3>Exports</h3>
            <Exports made={version.exports} appUrl={props.view.appUrl} />
          </section>
        );
      })}
    </Page>
  );
}

function Newest(props: { view: ProjectView; version: number; composition: unknown }) {
  const { project, canWrite } = props.view;
  return (
    <>
      {!canWrite ? null : project.versions.length < MAX_PROJECT_VERSIONS
        ? <p><a href={`/projects/${project.id}/edit`}>Edit, and export as version {props.version + 1}</a></p>
        : <p class="muted">This project has {MAX_PROJECT_VERSIONS} versions, as many as a project keeps; any of them can be exported again.</p>}
      <details><summary>The composition (JSON)</summary><pre class="pre">{JSON.stringify(props.composition, null, 2)}</pre></details>
    </>
  );
}

function Exports(props: { made: Export[]; appUrl: string }) {
  if (!props.made.length) return <p class="muted">Not exported yet.</p>;
  return (
    <div class="table-wrap"><table>
      <thead><tr><th>Started</th><th>Status</th><th>Video</th></tr></thead>
      <tbody>{props.made.map((made) => (
        <tr>
          <td>{when(made.createdAt)}</td>
          <td class={`status-${made.status}`}>{made.status}</td>
          <td>{made.status === 'done' ? <><a href={shareUrl(props.appUrl, made.id)}>Watch and share</a> · {formatBytes(made.bytes ?? 0)}</> : made.error ?? ''}</td>
        </tr>
      ))}</tbody>
    </table></div>
  );
}
