import type { Export, Project, ProjectVersion } from '@vp/db';
import { MAX_PROJECT_VERSIONS } from '@vp/projects';
import { formatBytes, formatDuration, formatUtc as when } from '../http/format.ts';
import { html, page } from '../http/html.ts';
import type { StoredComposition } from './edit-page.ts';

/** The public player: the video with its poster frame, titled from the pitch. */
export function sharePage(input: {
  title: string; shareUrl: string; videoUrl: string; posterUrl: string; width: number; height: number; durationMs: number; bytes: number;
}): string {
  const head = html`
<meta property="og:type" content="video.other"><meta property="og:title" content="${input.title}">
<meta property="og:url" content="${input.shareUrl}"><meta property="og:image" content="${input.posterUrl}">
<meta property="og:video" content="${input.videoUrl}"><meta property="og:video:type" content="video/mp4">
<meta property="og:video:width" content="${input.width}"><meta property="og:video:height" content="${input.height}">`;
  return page({
    title: input.title,
    head,
    body: html`<h1>${input.title}</h1>
<video controls playsinline preload="metadata" poster="${input.posterUrl}" width="${input.width}" height="${input.height}">
  <source src="${input.videoUrl}" type="video/mp4">
  <a href="${input.videoUrl}">Download the video</a>
</video>
<p class="muted">${formatDuration(input.durationMs)} · ${input.width}×${input.height} · ${formatBytes(input.bytes)} · <a href="${input.videoUrl}" download>Download MP4</a></p>`,
  });
}

/**
 * The editable project: every version's scenes with its exports and a button to export it again
 * on the render farm; the newest version's whole composition as JSON, and a link to its edit page.
 */
export function projectPage(input: {
  project: Project;
  /** Newest first. */
  versions: (ProjectVersion & { exports: Export[] })[];
  productionPageUrl: string | null;
  appUrl: string;
  projectUrl: string;
  /** Why what was asked was not done, shown above the versions. */
  problem?: string;
}): string {
  // Following an export: one being made, or queued and not known to be stuck (an error says it did not start).
  const busy = input.versions.some((v) => v.exports.some((e) => e.status === 'rendering' || (e.status === 'queued' && !e.error)));
  const versions = input.versions.map((version, index) => {
    const composition = version.composition as StoredComposition;
    const scenes = composition.scenes ?? [];
    const exportRows = version.exports.map((made) => html`<tr>
      <td>${when(made.createdAt)}</td>
      <td class="status-${made.status}">${made.status}</td>
      <td>${made.status === 'done' ? html`<a href="${input.appUrl}/share/${made.id}">Watch and share</a> · ${formatBytes(made.bytes ?? 0)}` : made.error ?? ''}</td>
    </tr>`);
    return html`<section class="card">
  <div class="row">
    <h2>Version ${version.version}</h2>
    <form method="post" action="${input.projectUrl}/versions/${version.version}/exports"><button type="submit">Export this version again</button></form>
  </div>
  <p class="muted">${composition.width ?? '?'}×${composition.height ?? '?'} · ${formatDuration(composition.durationMs ?? 0)} · ${scenes.length} scene${scenes.length === 1 ? '' : 's'} · saved ${when(version.createdAt)}</p>
  <table><thead><tr><th>#</th><th>Scene</th><th>Length</th></tr></thead><tbody>
    ${scenes.map((scene, i) => html`<tr><td>${i + 1}</td><td><strong>${scene.title ?? scene.kind ?? ''}</strong>${scene.text ? html`<br><span class="muted">${scene.text}</span>` : ''}</td><td>${formatDuration(scene.durationMs ?? 0)}</td></tr>`)}
  </tbody></table>
  ${index === 0 ? html`<p>${input.versions.length < MAX_PROJECT_VERSIONS
    ? html`<a href="${input.projectUrl}/edit">Edit, and export as version ${version.version + 1}</a>`
    : html`<span class="muted">This project has ${MAX_PROJECT_VERSIONS} versions, as many as a project keeps; any of them can be exported again.</span>`}</p>
  <details><summary>The composition (JSON)</summary><pre>${JSON.stringify(version.composition, null, 2)}</pre></details>` : null}
  <h2 class="spaced">Exports</h2>
  ${version.exports.length
    ? html`<table><thead><tr><th>Started</th><th>Status</th><th></th></tr></thead><tbody>${exportRows}</tbody></table>`
    : html`<p class="muted">Not exported yet.</p>`}
</section>`;
  });
  return page({
    title: `${input.project.title} · Project`,
    head: busy ? html`<meta http-equiv="refresh" content="5">` : undefined,
    body: html`<h1>${input.project.title}</h1>
<p class="muted">Project · created ${when(input.project.createdAt)}${input.productionPageUrl ? html` · <a href="${input.productionPageUrl}">The production</a>` : ''}</p>
${input.problem ? html`<div class="card notice problem" role="alert"><p>${input.problem}</p></div>` : null}
${versions}`,
  });
}

export function notFoundPage(message: string): string {
  return page({ title: 'Not found', body: html`<h1>Not found</h1><p class="muted">${message}</p>` });
}
