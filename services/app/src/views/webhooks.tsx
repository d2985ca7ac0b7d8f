/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { DEFAULT_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint } from '@vp/contracts';
import { Csrf, Notice, Page, when, type Chrome } from './layout.tsx';

export type EndpointForm = { values: { url: string; description: string; events: string[] }; problems: Record<string, string> };

const at = (iso: string | null) => when(iso ? new Date(iso) : null);
/** A response body is the receiver's text: shown as text, and only its start. */
const excerpt = (body: string | null) => (body && body.length > 200 ? `${body.slice(0, 200)}…` : body ?? '');

/** `/webhooks`: the workspace's endpoints, and a form for another. */
export function WebhooksPage(props: { chrome: Chrome; endpoints: WebhookEndpoint[]; nextCursor: string | null; form?: EndpointForm; notice?: string | null }) {
  const values = props.form?.values ?? { url: '', description: '', events: [...DEFAULT_EVENT_TYPES] };
  const problems = props.form?.problems ?? {};
  const canWrite = props.chrome.workspace.role !== 'viewer';
  return (
    <Page title="Webhooks" nonce={props.chrome.nonce} chrome={props.chrome}>
      <h1>Webhooks</h1>
      <p class="muted">Endpoints of {props.chrome.workspace.name}: each receives a signed POST for the events it subscribes to.</p>
      <Notice message={props.notice} />
      {props.endpoints.length ? (
        <div class="table-wrap">
          <table class="cards">
            <thead><tr><th scope="col">Endpoint</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Last success</th></tr></thead>
            <tbody>
              {props.endpoints.map((e) => (
                <tr>
                  <td data-label="Endpoint"><div><a href={`/webhooks/${e.id}`}>{e.url}</a>{e.description ? <><br /><span class="muted">{e.description}</span></> : null}</div></td>
                  <td data-label="Events">{e.events.length}</td>
                  <td data-label="State">{e.enabled ? 'on' : `off${e.disabledReason ? `: ${e.disabledReason}` : ''}`}</td>
                  <td data-label="Last success">{at(e.lastSuccessAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p class="card">No endpoints yet.</p>}
      {props.nextCursor ? <p><a href={`/webhooks?cursor=${encodeURIComponent(props.nextCursor)}`}>More endpoints</a></p> : null}
      {canWrite ? (
        <section class="card" aria-labelledby="new-endpoint">
          <h2 id="new-endpoint">Add an endpoint</h2>
          {props.form ? <p class="notice problem" role="alert">Nothing was added: see what to change below.</p> : null}
          <form method="post" action="/webhooks">
            <Csrf token={props.chrome.csrf} />
            <label for="webhook-url">Address (https)</label>
            <input id="webhook-url" name="url" type="url" value={values.url} required aria-invalid={problems.url ? 'true' : undefined} aria-describedby={problems.url ? 'webhook-url-problem' : undefined} />
            {problems.url ? <span id="webhook-url-problem" class="field-problem">{problems.url}</span> : null}
            <label for="webhook-description">Description (optional)</label>
            <input id="webhook-description" name="description" value={values.description} maxlength={200} aria-invalid={problems.description ? 'true' : undefined} aria-describedby={problems.description ? 'webhook-description-problem' : undefined} />
            {problems.description ? <span id="webhook-description-problem" class="field-problem">{problems.description}</span> : null}
            <fieldset aria-describedby={problems.events ? 'webhook-events-problem' : undefined}><legend>Events</legend>
              {SUBSCRIBABLE_EVENT_TYPES.map((type) => <label class="check"><input type="checkbox" name="events" value={type} checked={values.events.includes(type)} /> {type}</label>)}
              {problems.events ? <span id="webhook-events-problem" class="field-problem">{problems.events}</span> : null}
            </fieldset>
            <button type="submit">Add the endpoint</button>
          </form>
        </section>
      ) : null}
    </Page>
  );
}

/** `/webhooks/{id}`: the endpoint, its deliveries, and (for owners and editors) what may be done with it. */
export function EndpointPage(props: {
  chrome: Chrome; endpoint: WebhookEndpoint; deliveries: WebhookDelivery[]; nextCursor: string | null; canWrite: boolean; secret: string | null; notice?: string | null;
}) {
  const { endpoint: e, chrome } = props;
  const base = `/webhooks/${e.id}`;
  const post = (action: string, label: string, danger = false) => (
    <form method="post" action={`${base}/${action}`}><Csrf token={chrome.csrf} /><button type="submit" class={danger ? 'danger' : 'quiet'}>{label}</button></form>
  );
  return (
    <Page title="Webhook endpoint" nonce={chrome.nonce} chrome={chrome} scripts={props.secret ? ['/assets/app.js'] : []}>
      <p class="muted"><a href="/webhooks">Webhooks</a></p>
      <h1>{e.url}</h1>
      <Notice message={props.notice} />
      {props.secret ? (
        <section class="card notice" aria-labelledby="secret-title">
          <h2 id="secret-title">The signing secret</h2>
          <p>Copy it now: it is shown only this once.</p>
          <label for="secret">Secret</label>
          <input id="secret" class="secret" readonly value={props.secret} />
          <button type="button" data-copy="secret" hidden>Copy</button> <span data-copied-for="secret" role="status" hidden></span>
        </section>
      ) : null}
      <dl class="pairs card">
        {e.description ? <><dt>Description</dt><dd>{e.description}</dd></> : null}
        <dt>State</dt><dd>{e.enabled ? 'on' : `off${e.disabledReason ? `: ${e.disabledReason}` : ''}`}</dd>
        <dt>Events</dt><dd>{e.events.join(', ')}</dd>
        <dt>Failures in a row</dt><dd>{e.consecutiveFailures}</dd>
        <dt>Last attempt</dt><dd>{at(e.lastAttemptAt)}</dd>
        <dt>Last success</dt><dd>{at(e.lastSuccessAt)}</dd>
        {e.previousSecretExpiresAt ? <><dt>Previous secret signs until</dt><dd>{at(e.previousSecretExpiresAt)}</dd></> : null}
      </dl>
      {props.canWrite ? (
        <div class="actions card">
          {e.enabled ? post('disable', 'Switch off') : post('enable', 'Switch on')}
          {post('test', 'Send a test event')}
          {post('roll-secret', 'Roll the secret')}
          {post('delete', 'Delete the endpoint', true)}
        </div>
      ) : null}
      <h2>Deliveries</h2>
      {props.deliveries.length ? (
        <div class="table-wrap">
          <table class="cards">
            <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Response</th><th scope="col">Created</th>{props.canWrite ? <th scope="col"><span class="visually-hidden">Actions</span></th> : null}</tr></thead>
            <tbody>
              {props.deliveries.map((d) => (
                <tr>
                  <td data-label="Event">{d.event}{d.redeliveryOf ? <span class="muted"> (sent again)</span> : null}</td>
                  <td data-label="Status">{d.status}{d.nextAttemptAt ? <span class="muted"> · next {at(d.nextAttemptAt)}</span> : null}</td>
                  <td data-label="Attempts" class="num">{d.attempts}</td>
                  <td data-label="Response"><div>{d.lastResponseStatus ?? '—'}{d.lastError ? <><br /><span class="muted">{d.lastError}</span></> : null}{d.lastResponseBody ? <><br /><code>{excerpt(d.lastResponseBody)}</code></> : null}</div></td>
                  <td data-label="Created">{at(d.createdAt)}</td>
                  {props.canWrite ? <td data-label="">{d.status === 'pending' ? null : <form method="post" action={`${base}/deliveries/${d.id}/redeliver`}><Csrf token={chrome.csrf} /><button type="submit" class="quiet">Send again</button></form>}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p class="card">Nothing sent yet.</p>}
      {props.nextCursor ? <p><a href={`${base}?cursor=${encodeURIComponent(props.nextCursor)}`}>Older deliveries</a></p> : null}
    </Page>
  );
}
