import type { GreenlightLinkView, Pitch } from '@vp/contracts';
import { html, page, type Markup } from '../http/html.ts';
import { formatDuration, formatUtc as when } from '../http/format.ts';

export const PAGE_ACTIONS = ['greenlight', 'comment', 'decline'] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];

/** What the page says after an action went through (the page is shown again after a redirect). */
const DONE: Record<PageAction, string> = {
  greenlight: 'Greenlit. The credits are charged and the video is being made.',
  comment: 'Thanks: your comments went to the writer, and a new version of the pitch is on its way.',
  decline: 'Declined. Nothing was charged.',
};

/** The stages in which that message is still true; past them (a failure, the next version) the stage speaks. */
const DONE_WHILE: Record<PageAction, GreenlightLinkView['stage'][]> = {
  greenlight: ['greenlit', 'making', 'exporting'],
  comment: ['writing_pitch'],
  decline: ['declined'],
};

const STAGE: Partial<Record<GreenlightLinkView['stage'], string>> = {
  writing_pitch: 'A new version of the pitch is being written.',
  greenlit: 'The pitch was greenlit; the video is queued.',
  making: 'The video is being made.',
  exporting: 'The video is being exported.',
  delivered: 'The video is ready.',
  skipped: 'The brief was judged not worth a video.',
  declined: 'The pitch was declined.',
  cancelled: 'The production was cancelled.',
  failed: 'The production failed; the charge was refunded.',
};

/**
 * The page a greenlight link opens, for people answering from their inbox: the pitch, and
 * forms to greenlight, comment or decline. Opening it never acts (mail scanners open links
 * too); each form posts back here. `action` is the button the link was.
 */
export function linkPage(input: {
  link: GreenlightLinkView;
  formUrl: (action: PageAction) => string;
  action: PageAction | null;
  done: PageAction | null;
  problem: string | null;
  comment?: string;
  reason?: string;
}): string {
  const { link, problem } = input;
  const pitch = link.pitch;
  // `done` comes from the address: a page opened again days later shows where things stand now.
  const done = input.done && DONE_WHILE[input.done].includes(link.stage) ? input.done : null;
  const notice = problem
    ? html`<p class="card notice problem" role="alert">${problem}</p>`
    : done
      ? html`<p class="card notice" role="status">${DONE[done]}</p>`
      : null;
  // Where the production stands, unless the notice above already says it; after a refusal (a form
  // sent twice), only the stage, so the refusal is not read as the whole story.
  const stage = STAGE[link.stage] ?? '';
  const where = done ? null
    : problem
      ? link.state === 'open' || !stage ? null : html`<p class="card notice">${stage}</p>`
      : link.state === 'expired'
        ? html`<p class="card notice">This link expired on ${when(link.expiresAt)}. The workspace can still answer the pitch through the API.</p>`
        : link.state === 'stale'
          ? html`<p class="card notice">This pitch was already answered, or a newer version replaced it. ${stage}</p>`
          : null;
  return page({
    title: `${pitch?.title ?? link.intent} · Pitch`,
    body: html`<h1>${pitch?.title ?? link.intent}</h1>
<p class="muted">${link.workspaceName} · pitch version ${pitch?.version ?? link.currentPitchVersion} · ${formatDuration(link.format.durationMs)} · ${link.format.aspect}${pitch ? ` · ${pitch.estimatedCredits} credits` : ''}</p>
${notice}${where}
${link.state === 'open' ? actions(input) : null}
${link.delivery ? html`<p class="card"><a href="${link.delivery.shareUrl}">Watch the video</a></p>` : null}
${pitch ? pitchCard(pitch) : null}
<p class="muted">${link.state === 'open' ? `This link works without signing in until ${when(link.expiresAt)}, for this version of the pitch only.` : null}</p>`,
  });
}

function actions(input: Parameters<typeof linkPage>[0]): Markup {
  const { link, formUrl, action } = input;
  const credits = link.pitch?.estimatedCredits;
  // The greenlight an e-mail's link asked for is marked, not focused: a focused button would
  // charge the credits at a press of Space meant to scroll the page.
  return html`<section class="card${action === 'greenlight' ? ' chosen' : ''}">
  <form method="post" action="${formUrl('greenlight')}">
    <button type="submit">Greenlight${credits === undefined ? '' : ` for ${credits} credits`}</button>
  </form>
</section>
<section class="card">
  <form method="post" action="${formUrl('comment')}">
    <h2>Comment</h2>
    ${link.revisionsLeft > 0
      ? html`<p class="muted">What should change? A new version is written from your comments (${link.revisionsLeft} round${link.revisionsLeft === 1 ? '' : 's'} left).</p>
    <textarea name="comment" required maxlength="4000"${action === 'comment' ? html` autofocus` : null}>${input.comment ?? ''}</textarea>
    <button type="submit">Send comments</button>`
      : html`<p class="muted">No comment rounds are left on this production.</p>`}
  </form>
</section>
<section class="card">
  <form method="post" action="${formUrl('decline')}">
    <h2>Decline</h2>
    <textarea name="reason" maxlength="1000" placeholder="Why, if you like (optional)"${action === 'decline' ? html` autofocus` : null}>${input.reason ?? ''}</textarea>
    <button type="submit" class="quiet">Decline the pitch</button>
  </form>
</section>`;
}

function pitchCard(pitch: Pitch): Markup {
  let at = 0;
  const shots = [...pitch.shots].sort((a, b) => a.index - b.index).map((shot) => {
    const from = at;
    at += shot.durationMs;
    return html`<tr>
  <td>${shot.index + 1}</td>
  <td><strong>${shot.title}</strong><br><span class="muted">${formatDuration(from)}–${formatDuration(at)}</span>${still(shot)}</td>
  <td>${shot.visual}${shot.text ? html`<br><span class="muted">On screen: “${shot.text}”</span>` : null}${shot.voiceover ? html`<br><span class="muted">Voiceover: “${shot.voiceover}”</span>` : null}</td>
</tr>`;
  });
  return html`<section class="card">
  <h2>The pitch</h2>
  ${pitch.summary.split(/\n\s*\n/).map((paragraph) => html`<p>${paragraph}</p>`)}
  <table><thead><tr><th>#</th><th>Shot</th><th>What you see and hear</th></tr></thead><tbody>${shots}</tbody></table>
  ${pitch.music ? html`<p class="muted">Music: ${pitch.music}</p>` : null}
</section>`;
}

/** The shot's storyboard still (the frame the video shows at its key moment), once drawn. */
function still(shot: Pitch['shots'][number]): Markup | null {
  return shot.previewUrl ? html`<br><img src="${shot.previewUrl}" alt="Shot ${shot.index + 1}, as the video will show it" width="200">` : null;
}

/** A request refused before the link was read: too many from one address, a body too large. */
export const refusedPage = (message: string) => messagePage('Please try again', message);

/** A link that cannot be used at all: not ours, revoked, or links switched off. */
export const unusableLinkPage = (message: string) => messagePage('This link cannot be used', message);

function messagePage(heading: string, message: string): string {
  return page({ title: heading, body: html`<h1>${heading}</h1><p class="muted">${message}</p>` });
}
