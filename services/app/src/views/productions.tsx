/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { STAGES } from '@vp/contracts';
import { Page, when, type Chrome } from './layout.tsx';
import { stageWords } from './production.tsx';

export type ProductionRow = { id: string; title: string; stage: string; createdAt: Date; credits: number };

/** The workspace's productions, newest first, filtered by stage. */
export function ProductionsPage(props: { chrome: Chrome; productions: ProductionRow[]; nextCursor: string | null; stage: string }) {
  const more = new URLSearchParams({ ...(props.stage ? { stage: props.stage } : {}), ...(props.nextCursor ? { cursor: props.nextCursor } : {}) });
  return (
    <Page title="Productions" nonce={props.chrome.nonce} chrome={props.chrome}>
      <h1>Productions</h1>
      <p class="muted">Productions of {props.chrome.workspace.name}, newest first. Made here, or with the API (<code>POST /v1/productions</code>) and a key from <a href="/keys">API keys</a>.</p>
      <p class="actions">
        {props.chrome.workspace.role !== 'viewer' ? <a class="button" href="/productions/new">New production</a> : null}
      </p>
      <form method="get" action="/" class="filters">
        <label for="stage-filter">Stage</label>
        <select id="stage-filter" name="stage">
          <option value="">Every stage</option>
          {STAGES.map((stage) => <option value={stage} selected={props.stage === stage}>{stageWords(stage)}</option>)}
        </select>
        <button type="submit" class="quiet">Show</button>
      </form>
      {props.productions.length ? (
        <div class="table-wrap">
          <table class="cards">
            <thead><tr><th scope="col">Production</th><th scope="col">Stage</th><th scope="col">Created</th><th scope="col">Credits charged</th></tr></thead>
            <tbody>
              {props.productions.map((p) => (
                <tr><td data-label="Production"><a href={`/productions/${p.id}`}>{p.title}</a></td><td data-label="Stage"><span class={`stage stage-${p.stage}`}>{stageWords(p.stage)}</span></td><td data-label="Created">{when(p.createdAt)}</td><td data-label="Credits charged" class="num">{p.credits}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p class="card">{props.stage ? 'No productions in this stage.' : 'No productions in this workspace yet.'}</p>}
      {props.nextCursor ? <p><a href={`/?${more}`}>Older productions</a></p> : null}
    </Page>
  );
}
