/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { SCOPES } from '@vp/contracts';
import { Csrf, Notice, Page, Problem, when, type Chrome } from './layout.tsx';

export type KeyRow = { id: string; name: string; prefix: string; scopes: string[]; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null; madeBy: string };

const MADE_BY: Record<string, string> = { app: 'In the app', device: 'Device flow', operator: 'Operator' };
const SCOPE_HELP: Record<string, string> = {
  productions: 'productions and webhooks', renders: 'the one-call render API', capture: 'uploads from a capture tool', import: 'imports from an editor panel',
};

export function KeysPage(props: {
  chrome: Chrome; keys: KeyRow[]; created?: { apiKey: string; name: string } | null;
  form?: { name: string; scopes: string[] }; problems?: Record<string, string>; notice?: string | null;
}) {
  const { chrome, form = { name: '', scopes: ['productions'] }, problems = {} } = props;
  return (
    <Page title="API keys" nonce={chrome.nonce} chrome={chrome} scripts={['/assets/app.js']}>
      <h1>API keys</h1>
      <Notice message={props.notice} />
      {props.created ? (
        <section class="card notice" aria-labelledby="new-key">
          <h2 id="new-key">Your new key “{props.created.name}”</h2>
          <p>Copy it now and keep it somewhere safe: <strong>it is shown only this once.</strong></p>
          <label for="created-key">API key</label>
          <input id="created-key" class="secret" readonly value={props.created.apiKey} />
          <button type="button" class="quiet" data-copy="created-key" hidden>Copy</button>
          <span role="status" class="muted" data-copied-for="created-key"></span>
        </section>
      ) : null}
      <section class="card" aria-labelledby="create">
        <h2 id="create">Create a key</h2>
        <p class="muted">A key acts as you on <code>/v1</code>, in every workspace you can edit, within the scopes you give it.</p>
        <Problem message={problems[''] ?? null} />
        <form method="post" action="/keys">
          <Csrf token={chrome.csrf} />
          <label for="key-name">Name</label>
          <input id="key-name" name="name" required maxlength={100} value={form.name} aria-describedby={problems.name ? 'key-name-problem' : undefined} />
          {problems.name ? <span class="field-problem" id="key-name-problem">{problems.name}</span> : null}
          <fieldset aria-describedby={problems.scopes ? 'scopes-problem' : undefined}>
            <legend>Scopes</legend>
            {SCOPES.map((scope) => (
              <label class="check"><input type="checkbox" name="scopes" value={scope} checked={form.scopes.includes(scope)} /> <code>{scope}</code> <span class="muted">{SCOPE_HELP[scope]}</span></label>
            ))}
            {problems.scopes ? <span class="field-problem" id="scopes-problem">{problems.scopes}</span> : null}
          </fieldset>
          <button type="submit">Create key</button>
        </form>
      </section>
      <section class="card" aria-labelledby="list">
        <h2 id="list">Your keys</h2>
        {props.keys.length ? (
          <div class="table-wrap">
            <table class="cards">
              <thead><tr><th scope="col">Prefix</th><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Made</th><th scope="col"><span class="visually-hidden">Revoke</span></th></tr></thead>
              <tbody>
                {props.keys.map((key) => (
                  <tr class={key.revokedAt ? 'revoked' : undefined}>
                    <td data-label="Prefix"><code>{key.prefix}…</code></td>
                    <td data-label="Name">{key.name}</td>
                    <td data-label="Scopes">{key.scopes.join(', ')}</td>
                    <td data-label="Created">{when(key.createdAt)}</td>
                    <td data-label="Last used">{when(key.lastUsedAt)}</td>
                    <td data-label="Made">{MADE_BY[key.madeBy] ?? key.madeBy}</td>
                    <td data-label="">
                      {key.revokedAt ? <span>Revoked {when(key.revokedAt)}</span> : (
                        <form method="post" action={`/keys/${key.id}/revoke`}>
                          <Csrf token={chrome.csrf} />
                          <button type="submit" class="quiet" aria-label={`Revoke the key ${key.name} (${key.prefix}…)`}>Revoke</button>
                        </form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : <p>No keys yet.</p>}
      </section>
    </Page>
  );
}
