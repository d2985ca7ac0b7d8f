/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Production, ProductionEvent, QueueStatus } from '@vp/contracts';
import { Csrf, Notice, Page, when, type Chrome } from './layout.tsx';
import { BriefView } from './brief.tsx';
import { PitchView } from './pitch.tsx';

export type ProductionView = {
  production: Production;
  events: ProductionEvent[];
  queue: QueueStatus | null;
  /** Owners and editors act on it; viewers only read. */
  canAct: boolean;
  /** Credits given back once it failed or was cancelled. */
  refunded: number;
  /** Where the video plays and downloads from, once delivered. */
  videoUrl: string | null;
  notice?: string | null;
  /** A refused comment, beside its field, with what was typed. */
  commentProblem?: string;
  comment?: string;
};

export const stageWords = (stage: string) => stage.replace(/_/g, ' ');

/** `/productions/{id}`: the pitch and the buttons to answer it, progress while it is made, the video once delivered. */
export function ProductionPage(props: { chrome: Chrome; view: ProductionView; progressIntervalMs: number }) {
  const { production, queue } = props.view;
  const title = production.pitch?.title ?? production.brief.intent;
  const live = !production.terminal && production.stage !== 'pitch_ready';
  return (
    <Page title={title} nonce={props.chrome.nonce} chrome={props.chrome} scripts={live ? ['/assets/progress.js'] : []}>
      <p class="muted"><a href="/">Productions</a></p>
      <h1>{title}</h1>
      <Notice message={props.view.notice} />
      <p id="progress" class="card" aria-live="polite" data-progress-url={`/productions/${production.id}/progress`} data-interval-ms={String(props.progressIntervalMs)} data-stage={production.stage}>
        Stage: <strong data-field="stage">{stageWords(production.stage)}</strong>
        <span data-field="phase-wrap" hidden={!queue?.phase}> · render phase: <strong data-field="phase">{queue?.phase ?? ''}</strong></span>
        <span data-field="retrying" hidden={!queue?.retrying}> · retrying</span>
        <a data-field="reload" href={`/productions/${production.id}`} hidden> · Things moved on: show the new state</a>
      </p>
      <dl class="pairs card">
        <dt>Estimated credits</dt><dd>{production.pitch ? production.pitch.estimatedCredits : 'once the pitch is written'}</dd>
        <dt>Credits charged</dt><dd>{production.creditsCharged}</dd>
        <dt>Revisions left</dt><dd>{production.revisionsLeft}</dd>
        <dt>Made from</dt><dd>{production.source.kind === 'app' ? 'this app' : production.source.kind === 'mcp' ? 'an assistant (MCP)' : 'the API'}</dd>
        <dt>Created</dt><dd>{when(new Date(production.createdAt))}</dd>
      </dl>
      <Outcome view={props.view} />
      {production.pitch ? <PitchView pitch={production.pitch} /> : production.terminal ? null : <p class="card">The pitch is being written; this page shows it when it is ready.</p>}
      {props.view.canAct && !production.terminal ? <Answers chrome={props.chrome} view={props.view} /> : null}
      <BriefView brief={production.brief} />
      <Timeline events={props.view.events} />
    </Page>
  );
}

/** Once it has ended: the video and its links, or why it did not happen and what was given back. */
function Outcome({ view }: { view: ProductionView }) {
  const { production } = view;
  if (production.stage === 'delivered' && production.delivery) {
    const { shareUrl, editUrl } = production.delivery;
    return (
      <section class="card" aria-labelledby="video-title">
        <h2 id="video-title">The video</h2>
        {view.videoUrl ? <video id="player" controls playsinline preload="metadata" src={view.videoUrl} class="player"><a href={view.videoUrl}>Download the video</a></video> : null}
        <ul class="rows">
          <li><span>Share link (public)</span><a href={shareUrl}>{shareUrl}</a></li>
          {view.videoUrl ? <li><span>Download</span><a href={view.videoUrl} download>MP4</a></li> : null}
          <li><span>Editable project</span><a href={editUrl}>Open the project</a></li>
        </ul>
      </section>
    );
  }
  if (production.stage === 'failed' || production.stage === 'cancelled' || production.stage === 'declined' || production.stage === 'skipped') {
    return (
      <section class="card notice problem" aria-labelledby="outcome-title">
        <h2 id="outcome-title">{production.stage === 'failed' ? 'The video could not be made' : `This production was ${stageWords(production.stage)}`}</h2>
        {production.error ? <p>{production.error}</p> : null}
        {view.refunded ? <p>{view.refunded} credits were refunded.</p> : production.stage === 'failed' ? <p>No credits were charged for it.</p> : null}
      </section>
    );
  }
  return null;
}

function Answers({ chrome, view }: { chrome: Chrome; view: ProductionView }) {
  const { production } = view;
  const base = `/productions/${production.id}`;
  const version = production.pitch ? String(production.pitch.version) : '';
  const answering = production.stage === 'pitch_ready' && production.pitch;
  return (
    <section class="card" aria-labelledby="answer-title">
      <h2 id="answer-title">Your answer</h2>
      {answering ? (
        <>
          <form method="post" action={`${base}/greenlight`}>
            <Csrf token={chrome.csrf} /><input type="hidden" name="pitchVersion" value={version} />
            <button type="submit">Greenlight: make the video ({production.pitch!.estimatedCredits} credits)</button>
          </form>
          {production.revisionsLeft > 0 ? (
            <form method="post" action={`${base}/comment`}>
              <Csrf token={chrome.csrf} /><input type="hidden" name="pitchVersion" value={version} />
              <label for="comment">What should change ({production.revisionsLeft} revisions left)</label>
              <textarea id="comment" name="comment" rows={3} aria-invalid={view.commentProblem ? 'true' : undefined} aria-describedby={view.commentProblem ? 'comment-problem' : undefined}>{view.comment ?? ''}</textarea>
              {view.commentProblem ? <span id="comment-problem" class="field-problem">{view.commentProblem}</span> : null}
              <button type="submit">Ask for a new pitch</button>
            </form>
          ) : <p class="muted">No revisions left: greenlight this pitch or decline it.</p>}
          <form method="post" action={`${base}/decline`}>
            <Csrf token={chrome.csrf} />
            <label for="decline-reason">Why not (optional)</label>
            <input id="decline-reason" name="reason" maxlength={1000} />
            <button type="submit" class="danger">Decline</button>
          </form>
        </>
      ) : null}
      <form method="post" action={`${base}/cancel`}>
        <Csrf token={chrome.csrf} />
        <button type="submit" class="danger">Cancel the production</button>
        <span class="muted"> Credits charged are refunded in full before delivery.</span>
      </form>
    </section>
  );
}

const EVENT_WORDS: Record<ProductionEvent['kind'], string> = {
  created: 'created it', stage: 'moved it on', pitch: 'wrote a pitch', comment: 'asked for changes', greenlit: 'greenlit it',
  declined: 'declined it', cancelled: 'cancelled it', delivered: 'delivered the video', failed: 'recorded a failure', note: 'noted progress',
};

/** What happened, oldest first, each with who did it (the account's name, a key's name, or the service). */
function Timeline({ events }: { events: ProductionEvent[] }) {
  return (
    <section class="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <ol class="rows timeline">
        {events.map((event) => {
          const payload = event.payload as { stage?: string; comment?: string; reason?: string; phase?: string; error?: string; version?: number };
          const detail = payload.comment ?? payload.reason ?? payload.error ?? (payload.phase ? `render phase ${payload.phase}`
            : event.kind === 'pitch' && payload.version ? `version ${payload.version}` : event.kind === 'stage' && payload.stage ? stageWords(payload.stage) : null);
          return (
            <li>
              <span><strong>{event.actorName ?? event.actor}</strong> {EVENT_WORDS[event.kind]}{detail ? <>: <q>{detail}</q></> : null}</span>
              <span class="muted">{when(new Date(event.createdAt))}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
