/** @jsxRuntime automatic @jsxImportSource hono/jsx */
// (The pragma above: tsx, which runs the services, reads no tsconfig outside the working
// directory, so each .tsx file names its JSX runtime itself.)
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import { CSRF_FIELD } from '../http/forgery.ts';

/** What every signed-in page knows: the person, the workspace shown and the others it may switch to. */
export type Chrome = {
  nonce: string;
  csrf: string;
  account: { email: string; name: string | null };
  workspace: { workspaceId: string; name: string; role: string };
  workspaces: { id: string; name: string; personal: boolean }[];
  path: string;
};

const NAV = [
  { href: '/', label: 'Productions' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/workspace', label: 'Workspace' },
  { href: '/keys', label: 'API keys' },
  { href: '/account', label: 'Account' },
];

/** The hidden field every form of a signed-in page carries. */
export const Csrf = (props: { token: string }) => <input type="hidden" name={CSRF_FIELD} value={props.token} />;

/** One stylesheet, one script (nonce'd, optional to every form), nothing from elsewhere; `refreshSeconds` reloads a page that follows work without a script. */
export function Page(props: { title: string; nonce: string; chrome?: Chrome; children: Child; scripts?: string[]; refreshSeconds?: number }) {
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${props.title} · Video Production Service`}</title>
          <link rel="stylesheet" href="/assets/app.css" />
          {props.refreshSeconds ? <meta http-equiv="refresh" content={String(props.refreshSeconds)} /> : null}
          {(props.scripts ?? []).map((src) => <script src={src} nonce={props.nonce} defer />)}
        </head>
        <body>
          <a class="skip" href="#main">Skip to content</a>
          {props.chrome ? <Header chrome={props.chrome} /> : <header class="top"><span class="brand">Video Production Service</span></header>}
          <main id="main">{props.children}</main>
        </body>
      </html>
    </>
  );
}

function Header({ chrome }: { chrome: Chrome }) {
  return (
    <header class="top">
      <span class="brand">Video Production Service</span>
      <nav aria-label="Main">
        <ul>
          {NAV.map((item) => (
            <li><a href={item.href} aria-current={chrome.path === item.href ? 'page' : undefined}>{item.label}</a></li>
          ))}
        </ul>
      </nav>
      <div class="who">
        {chrome.workspaces.length > 1 ? (
          <form method="post" action="/workspace/switch" class="switcher">
            <Csrf token={chrome.csrf} />
            <label for="switch-workspace">Workspace</label>
            <select id="switch-workspace" name="workspaceId">
              {chrome.workspaces.map((w) => (
                <option value={w.id} selected={w.id === chrome.workspace.workspaceId}>{w.personal ? `${w.name} (personal)` : w.name}</option>
              ))}
            </select>
            <button type="submit" class="quiet">Switch</button>
          </form>
        ) : <span class="muted">{chrome.workspace.name}</span>}
        <form method="post" action="/sign-out">
          <Csrf token={chrome.csrf} />
          <button type="submit" class="quiet">Sign out</button>
        </form>
      </div>
    </header>
  );
}

/** A form's refusal: above the form, announced to screen readers. */
export function Problem(props: { message: string | null | undefined }) {
  return props.message ? <p class="notice problem" role="alert">{props.message}</p> : null;
}

/** A done thing, said once after a form. */
export function Notice(props: { message: string | null | undefined }) {
  return props.message ? <p class="notice" role="status">{props.message}</p> : null;
}

export const when = (date: Date | null | undefined) => (date ? date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : 'never');
