/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { AuthorizationParams, AuthorizationRequest } from '@vp/oauth';
import { Csrf, Page, Problem, type Chrome } from './layout.tsx';

/** Where the client will be sent: its host (or its app's scheme), which the person can recognise. */
const destination = (uri: string) => {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : `${url.protocol}//`;
};

/** The consent: which client, acting as which account, in which workspaces; Allow or Deny. */
export function ConsentPage(props: { chrome: Chrome; request: AuthorizationRequest; params: AuthorizationParams; workspaces: { id: string; name: string; role: string; personal: boolean }[] }) {
  const { chrome, request } = props;
  const documented = request.client.kind === 'metadata_document';
  return (
    <Page title="Connect an MCP client" nonce={chrome.nonce} chrome={chrome}>
      <h1>Connect {request.client.name}?</h1>
      <section class="card" aria-labelledby="consent">
        <h2 id="consent">{request.client.name} asks to act as you</h2>
        <p>
          <strong>{request.client.name}</strong>{' '}
          <span class="muted">({documented ? `identified by ${request.client.clientId}` : 'registered itself; its name is its own claim'})</span>{' '}
          wants to use the MCP server as <strong>{chrome.account.email}</strong>.
        </p>
        <p>It could read, create, greenlight (spending credits), comment on, decline and cancel productions, and make renders, in:</p>
        <ul>
          {props.workspaces.map((w) => <li>{w.personal ? `${w.name} (personal)` : w.name} <span class="muted">as {w.role}{w.role === 'viewer' ? ': read only' : ''}</span></li>)}
        </ul>
        <p class="muted">After you answer, your browser goes to {destination(request.redirectUri)}. You can disconnect it at any time on your account page.</p>
        <form method="post" action="/oauth/authorize" class="inline">
          <Csrf token={chrome.csrf} />
          {Object.entries(props.params).map(([name, value]) => <input type="hidden" name={name} value={value} />)}
          <button type="submit" name="decision" value="allow">Allow</button>
          <button type="submit" name="decision" value="deny" class="quiet">Deny</button>
        </form>
      </section>
    </Page>
  );
}

/** A request that cannot go back to its client (unknown client, unregistered redirect URI). */
export function AuthorizationProblemPage(props: { nonce: string; problem: string }) {
  return (
    <Page title="Cannot connect" nonce={props.nonce}>
      <h1>This connection request cannot be answered</h1>
      <Problem message={props.problem} />
      <p>Nothing was shared. Start the connection again from your MCP client.</p>
    </Page>
  );
}

/** After the answer: the browser goes on to the client (see routes/oauth.tsx for why not a redirect). */
export function ReturningPage(props: { nonce: string; clientName: string; target: string; allowed: boolean }) {
  return (
    <Page title={props.allowed ? 'Connected' : 'Not connected'} nonce={props.nonce}>
      <meta http-equiv="refresh" content={`0;url=${props.target}`} />
      <h1>{props.allowed ? `${props.clientName} is connected` : `${props.clientName} was not connected`}</h1>
      <p>Returning you to {props.clientName}… <a href={props.target}>Continue</a></p>
    </Page>
  );
}
