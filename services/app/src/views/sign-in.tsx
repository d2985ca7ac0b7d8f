/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Page, Problem } from './layout.tsx';

const PASSKEY_SCRIPTS = ['/assets/webauthn.js', '/assets/app.js'];

export function SignInPage(props: { nonce: string; signup: 'open' | 'invite'; email?: string; problem?: string | null }) {
  return (
    <Page title="Sign in" nonce={props.nonce} scripts={PASSKEY_SCRIPTS}>
      <h1>Sign in</h1>
      <section class="card" aria-labelledby="by-email">
        <h2 id="by-email">With an e-mail link</h2>
        <p class="muted">We e-mail you a link that signs you in. {props.signup === 'open' ? 'A new address gets an account of its own.' : 'Accounts here are made by invitation.'}</p>
        <Problem message={props.problem} />
        <form method="post" action="/sign-in">
          <label for="email">E-mail address</label>
          <input id="email" name="email" type="email" autocomplete="email" required maxlength={254} value={props.email ?? ''} />
          <button type="submit">E-mail me a sign-in link</button>
        </form>
      </section>
      <section class="card" aria-labelledby="by-passkey" id="passkey-sign-in" hidden>
        <h2 id="by-passkey">With a passkey</h2>
        <p class="muted">Add a passkey on your account page once you are signed in; then sign in with it here.</p>
        <p class="notice problem" role="alert" id="passkey-problem" hidden></p>
        <button type="button" id="passkey-sign-in-button">Sign in with a passkey</button>
      </section>
    </Page>
  );
}

/** The same page for every address: whether it has an account is never told here. */
export function LinkSentPage(props: { nonce: string; email: string }) {
  return (
    <Page title="Check your e-mail" nonce={props.nonce}>
      <h1>Check your e-mail</h1>
      <p role="status">We sent an e-mail to <strong>{props.email}</strong>. Open the link in it to sign in: it works once, for 15 minutes.</p>
      <p class="muted">Nothing there after a few minutes? Check the spam folder, or <a href="/sign-in">ask again</a>.</p>
    </Page>
  );
}

/** What a link opens: a button that signs in. Opening the link alone does nothing. */
export function UseLinkPage(props: { nonce: string; token: string; email: string; invitation: { workspaceName: string; role: string } | null }) {
  return (
    <Page title="Sign in" nonce={props.nonce}>
      <h1>{props.invitation ? `Join ${props.invitation.workspaceName}` : 'Sign in'}</h1>
      {props.invitation
        ? <p>You were invited to the workspace <strong>{props.invitation.workspaceName}</strong> as {props.invitation.role === 'viewer' ? 'a viewer' : props.invitation.role === 'editor' ? 'an editor' : 'an owner'}.</p>
        : null}
      <form method="post" action="/sign-in/link">
        <input type="hidden" name="token" value={props.token} />
        <button type="submit">{props.invitation ? `Join and sign in as ${props.email}` : `Sign in as ${props.email}`}</button>
      </form>
    </Page>
  );
}
