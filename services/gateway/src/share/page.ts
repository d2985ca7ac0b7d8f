import { formatBytes, formatDuration } from '../http/format.ts';
import { html, page } from '../http/html.ts';

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

export function notFoundPage(message: string): string {
  return page({ title: 'Not found', body: html`<h1>Not found</h1><p class="muted">${message}</p>` });
}
