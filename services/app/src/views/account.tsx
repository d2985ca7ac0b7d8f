/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Csrf, Notice, Page, Problem, when, type Chrome } from './layout.tsx';

export type AccountView = {
  account: { email: string; name: string | null };
  passkeys: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }[];
  sessions: { id: string; userAgent: string | null; createdAt: Date; lastUsedAt: Date }[];
  currentSessionId: string;
  connections: { id: string; clientName: string; clientId: string; connectedAt: Date; lastUsedAt: Date | null }[];
  emails: Record<'pitch_ready' | 'video_delivered' | 'production_failed', boolean>;
};

const EMAIL_LABELS = {
  pitch_ready: 'A pitch is ready (with links to greenlight, comment or decline)',
  video_delivered: 'A video is delivered',
  production_failed: 'A production failed',
} as const;

export function AccountPage(props: { chrome: Chrome; view: AccountView; notice?: string | null; problem?: string | null; name?: string }) {
  const { chrome, view } = props;
  return (
    <Page title="Account" nonce={chrome.nonce} chrome={chrome} scripts={['/assets/webauthn.js', '/assets/app.js']}>
      <h1>Account</h1>
      <Notice message={props.notice} />
      <section class="card" aria-labelledby="profile">
        <h2 id="profile">You</h2>
        <p>E-mail address: <strong>{view.account.email}</strong> <span class="muted">(you sign in with it)</span></p>
        <Problem message={props.problem} />
        <form method="post" action="/account/name" class="inline">
          <Csrf token={chrome.csrf} />
          <label for="name">Name</label>
          <input id="name" name="name" autocomplete="name" maxlength={120} value={props.name ?? view.account.name ?? ''} />
          <button type="submit">Save name</button>
        </form>
      </section>

      <PasskeysSection chrome={chrome} passkeys={view.passkeys} />
      <SessionsSection chrome={chrome} sessions={view.sessions} currentSessionId={view.currentSessionId} />
      <ConnectionsSection chrome={chrome} connections={view.connections} />

      <section class="card" aria-labelledby="emails">
        <h2 id="emails">E-mails</h2>
        <form method="post" action="/account/emails">
          <Csrf token={chrome.csrf} />
          <fieldset>
            <legend>Send me an e-mail when, in a workspace where I am an owner or editor:</legend>
            {(Object.keys(EMAIL_LABELS) as (keyof typeof EMAIL_LABELS)[]).map((kind) => (
              <label class="check"><input type="checkbox" name="emails" value={kind} checked={view.emails[kind]} /> {EMAIL_LABELS[kind]}</label>
            ))}
          </fieldset>
          <button type="submit">Save e-mail choices</button>
        </form>
      </section>
    </Page>
  );
}

function PasskeysSection({ chrome, passkeys }: { chrome: Chrome; passkeys: AccountView['passkeys'] }) {
  return (
    <section class="card" aria-labelledby="passkeys">
      <h2 id="passkeys">Passkeys</h2>
      <p class="muted">A passkey signs you in without an e-mail: your device's screen lock or a security key.</p>
      {passkeys.length ? (
        <ul class="rows">
          {passkeys.map((passkey) => (
            <li>
              <span><strong>{passkey.name}</strong> <span class="muted">added {when(passkey.createdAt)}, last used {when(passkey.lastUsedAt)}</span></span>
              <form method="post" action={`/account/passkeys/${passkey.id}/remove`}>
                <Csrf token={chrome.csrf} />
                <button type="submit" class="quiet" aria-label={`Remove the passkey ${passkey.name}`}>Remove</button>
              </form>
            </li>
          ))}
        </ul>
      ) : <p>No passkeys yet.</p>}
      <form id="add-passkey" class="inline" hidden>
        <Csrf token={chrome.csrf} />
        <label for="passkey-name">Name of the new passkey</label>
        <input id="passkey-name" name="name" maxlength={100} placeholder="e.g. Work laptop" />
        <button type="submit">Add a passkey</button>
      </form>
      <p class="notice problem" role="alert" id="passkey-problem" hidden></p>
      <noscript><p class="muted">Adding a passkey needs JavaScript.</p></noscript>
    </section>
  );
}

function SessionsSection({ chrome, sessions, currentSessionId }: { chrome: Chrome; sessions: AccountView['sessions']; currentSessionId: string }) {
  return (
    <section class="card" aria-labelledby="sessions">
      <h2 id="sessions">Where you are signed in</h2>
      <ul class="rows">
        {sessions.map((session) => (
          <li>
            <span>
              <strong>{describeBrowser(session.userAgent)}</strong>{session.id === currentSessionId ? ' (this browser)' : ''}{' '}
              <span class="muted">signed in {when(session.createdAt)}, last active {when(session.lastUsedAt)}</span>
            </span>
            <form method="post" action={`/account/sessions/${session.id}/end`}>
              <Csrf token={chrome.csrf} />
              <button type="submit" class="quiet" aria-label={`Sign out ${describeBrowser(session.userAgent)}, signed in ${when(session.createdAt)}`}>Sign out</button>
            </form>
          </li>
        ))}
      </ul>
      <form method="post" action="/account/sessions/end-all">
        <Csrf token={chrome.csrf} />
        <button type="submit" class="danger">Sign out everywhere</button>
      </form>
    </section>
  );
}

/** A few words for a User-Agent: the browser and the system, enough to tell sessions apart. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return 'A browser';
  const browser = [['Edg/', 'Edge'], ['Firefox/', 'Firefox'], ['Chrome/', 'Chrome'], ['Safari/', 'Safari']].find(([mark]) => userAgent.includes(mark!))?.[1];
  const system = [['Android', 'Android'], ['iPhone', 'iPhone'], ['iPad', 'iPad'], ['Mac OS X', 'macOS'], ['Windows', 'Windows'], ['Linux', 'Linux']].find(([mark]) => userAgent.includes(mark!))?.[1];
  return browser && system ? `${browser} on ${system}` : browser ?? system ?? userAgent.slice(0, 60);
}

/** MCP clients connected by OAuth: each one's tokens stop working when it is disconnected. */
function ConnectionsSection({ chrome, connections }: { chrome: Chrome; connections: AccountView['connections'] }) {
  return (
    <section class="card" aria-labelledby="connections">
      <h2 id="connections">Connected MCP clients</h2>
      {connections.length ? (
        <ul class="rows">
          {connections.map((connection) => (
            <li>
              <span>
                <strong>{connection.clientName}</strong>{' '}
                <span class="muted">connected {when(connection.connectedAt)}, last used {when(connection.lastUsedAt)}</span>
              </span>
              <form method="post" action={`/account/connections/${connection.id}/disconnect`}>
                <Csrf token={chrome.csrf} />
                <button type="submit" class="quiet" aria-label={`Disconnect ${connection.clientName}, connected ${when(connection.connectedAt)}`}>Disconnect</button>
              </form>
            </li>
          ))}
        </ul>
      ) : <p>No MCP client is connected. Connect one from its settings with this service's MCP address.</p>}
    </section>
  );
}
