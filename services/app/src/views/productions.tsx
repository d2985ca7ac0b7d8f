/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Page, when, type Chrome } from './layout.tsx';

export type ProductionRow = { id: string; title: string; stage: string; createdAt: Date; credits: number };

/** The workspace's productions, newest first (read-only until the production pages come). */
export function ProductionsPage(props: { chrome: Chrome; productions: ProductionRow[]; nextCursor: string | null }) {
  return (
    <Page title="Productions" nonce={props.chrome.nonce} chrome={props.chrome}>
      <h1>Productions</h1>
      <p class="muted">Productions of {props.chrome.workspace.name}, newest first. Make them with the API (<code>POST /v1/productions</code>) and a key from <a href="/keys">API keys</a>.</p>
      {props.productions.length ? (
        <div class="table-wrap">
          <table class="cards">
            <thead><tr><th scope="col">Production</th><th scope="col">Stage</th><th scope="col">Created</th><th scope="col">Credits charged</th></tr></thead>
            <tbody>
              {props.productions.map((p) => (
                <tr><td data-label="Production">{p.title}</td><td data-label="Stage"><span class={`stage stage-${p.stage}`}>{p.stage.replace('_', ' ')}</span></td><td data-label="Created">{when(p.createdAt)}</td><td data-label="Credits charged" class="num">{p.credits}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p class="card">No productions in this workspace yet.</p>}
      {props.nextCursor ? <p><a href={`/?cursor=${encodeURIComponent(props.nextCursor)}`}>Older productions</a></p> : null}
    </Page>
  );
}
