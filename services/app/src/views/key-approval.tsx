/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { KeyRequestView } from '@vp/accounts';
import { Csrf, Notice, Page, Problem, when, type Chrome } from './layout.tsx';

/** What the page says: the request to confirm, a refusal in words, or the answer given. */
export type ApprovalState =
  | { kind: 'ask'; problem?: string | null; code?: string }
  | { kind: 'confirm'; request: KeyRequestView }
  | { kind: 'answered'; answer: 'approved' | 'denied'; name: string };

/** /keys/approve: a tool's key request, approved or refused by the signed-in person (spec: Authentication 6). */
export function KeyApprovalPage(props: { chrome: Chrome; state: ApprovalState }) {
  const { chrome, state } = props;
  return (
    <Page title="Approve a key request" nonce={chrome.nonce} chrome={chrome}>
      <h1>Approve a key request</h1>
      {state.kind === 'confirm' ? <Confirm chrome={chrome} request={state.request} /> : null}
      {state.kind === 'answered' ? (
        <Notice message={state.answer === 'approved'
          ? `Approved: “${state.name}” receives its key on its next poll. The key acts as you, with all four scopes; you can revoke it on your keys page.`
          : `Refused: “${state.name}” gets no key.`} />
      ) : null}
      {state.kind === 'ask' ? (
        <section class="card" aria-labelledby="ask">
          <h2 id="ask">Enter the code your tool shows</h2>
          <Problem message={state.problem} />
          <form method="get" action="/keys/approve">
            <label for="user-code">Code</label>
            <input id="user-code" name="code" required maxlength={20} autocomplete="off" autocapitalize="characters" spellcheck={false} value={state.code ?? ''} placeholder="XXXX-XXXX" />
            <button type="submit">Continue</button>
          </form>
        </section>
      ) : null}
      <p><a href="/keys">Your keys</a></p>
    </Page>
  );
}

function Confirm(props: { chrome: Chrome; request: KeyRequestView }) {
  const { request } = props;
  return (
    <section class="card" aria-labelledby="confirm">
      <h2 id="confirm">Does your tool show <code class="user-code">{request.userCode}</code>?</h2>
      <p>Approve only a request you made yourself, just now. The key will act as you, in every workspace you can edit, with all four scopes.</p>
      <dl>
        <dt>Asking</dt><dd>{request.name}</dd>
        <dt>Asked</dt><dd>{when(request.createdAt)}</dd>
        <dt>From address</dt><dd>{request.requestedFrom ?? 'unknown'}</dd>
        <dt>Expires</dt><dd>{when(request.expiresAt)}</dd>
      </dl>
      <form method="post" action="/keys/approve" class="inline">
        <Csrf token={props.chrome.csrf} />
        <input type="hidden" name="code" value={request.userCode} />
        <button type="submit" name="answer" value="approve">Approve</button>
        <button type="submit" name="answer" value="deny" class="quiet">Deny</button>
      </form>
    </section>
  );
}
