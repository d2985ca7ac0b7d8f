/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { ROLES, type Brand } from '@vp/contracts';
import { Csrf, Notice, Page, Problem, when, type Chrome } from './layout.tsx';

export type WorkspaceView = {
  members: { accountId: string; email: string; name: string | null; role: string; isOwner: boolean }[];
  invitations: { id: string; email: string; role: string; createdAt: Date }[];
  brand: Brand;
  credits: { balance: number; pitchesUsed: number; pitchCap: number; entries: { id: string; kind: string; amount: number; productionId: string | null; note: string | null; createdAt: Date }[] };
};

type Forms = { invite?: { email: string; role: string; problem: string }; brand?: { values: Record<string, string>; problems: Record<string, string> } };

const BRAND_FIELDS = [
  { name: 'name', label: 'Brand name', max: 120, type: 'text' },
  { name: 'logoUrl', label: 'Logo address (https)', max: 4000, type: 'url' },
  { name: 'primaryColor', label: 'Primary colour', max: 32, type: 'text', hint: 'e.g. #ff5a36' },
  { name: 'backgroundColor', label: 'Background colour', max: 32, type: 'text', hint: 'e.g. #101014' },
  { name: 'fontFamily', label: 'Font family', max: 120, type: 'text', hint: 'e.g. Inter' },
  { name: 'tone', label: 'Tone of voice', max: 300, type: 'text', hint: 'e.g. Warm and precise' },
] as const;

export function WorkspacePage(props: { chrome: Chrome; view: WorkspaceView; forms?: Forms; notice?: string | null }) {
  const { chrome, view, forms = {} } = props;
  return (
    <Page title="Workspace" nonce={chrome.nonce} chrome={chrome}>
      <h1>{chrome.workspace.name}</h1>
      <p class="muted">You are {chrome.workspace.role === 'owner' ? 'an owner' : chrome.workspace.role === 'editor' ? 'an editor' : 'a viewer'} of this workspace.</p>
      <Notice message={props.notice} />
      <MembersSection chrome={chrome} view={view} invite={forms.invite} />
      <BrandSection chrome={chrome} brand={view.brand} form={forms.brand} />

      <CreditsSection credits={view.credits} />
    </Page>
  );
}

function BrandSection(props: { chrome: Chrome; brand: Brand; form?: { values: Record<string, string>; problems: Record<string, string> } }) {
  const { chrome, brand, form } = props;
  const canWrite = chrome.workspace.role !== 'viewer';
  return (
    <section class="card" aria-labelledby="brand">
      <h2 id="brand">Brand</h2>
      <p class="muted">New productions start from it.</p>
      {canWrite ? (
        <form method="post" action="/workspace/brand" class="grid">
          <Csrf token={chrome.csrf} />
          <Problem message={form?.problems[''] ?? null} />
          {BRAND_FIELDS.map((f) => {
            const problem = form?.problems[f.name];
            return (
              <div>
                <label for={`brand-${f.name}`}>{f.label}</label>
                <input id={`brand-${f.name}`} name={f.name} type={f.type} maxlength={f.max} placeholder={'hint' in f ? f.hint : undefined}
                  value={form ? form.values[f.name] ?? '' : brand[f.name] ?? ''} aria-describedby={problem ? `brand-${f.name}-problem` : undefined} />
                {problem ? <span class="field-problem" id={`brand-${f.name}-problem`}>{problem}</span> : null}
              </div>
            );
          })}
          <button type="submit">Save brand</button>
        </form>
      ) : (
        <dl class="pairs">
          {BRAND_FIELDS.map((f) => <><dt>{f.label}</dt><dd>{brand[f.name] ?? '—'}</dd></>)}
        </dl>
      )}
    </section>
  );
}

function MembersSection(props: { chrome: Chrome; view: WorkspaceView; invite?: Forms['invite'] }) {
  const { chrome, view } = props;
  const isOwner = chrome.workspace.role === 'owner';
  return (
    <section class="card" aria-labelledby="members">
      <h2 id="members">Members</h2>
      <ul class="rows">
        {view.members.map((member) => (
          <li>
            <span><strong>{member.name ?? member.email}</strong>{member.name ? <span class="muted"> {member.email}</span> : null}</span>
            {isOwner && !member.isOwner ? (
              <span class="actions">
                <form method="post" action={`/workspace/members/${member.accountId}/role`} class="inline">
                  <Csrf token={chrome.csrf} />
                  <label for={`role-${member.accountId}`} class="visually-hidden">Role of {member.name ?? member.email}</label>
                  <select id={`role-${member.accountId}`} name="role">{ROLES.map((role) => <option value={role} selected={role === member.role}>{role}</option>)}</select>
                  <button type="submit" class="quiet">Change role</button>
                </form>
                <form method="post" action={`/workspace/members/${member.accountId}/remove`}>
                  <Csrf token={chrome.csrf} />
                  <button type="submit" class="quiet" aria-label={`Remove ${member.name ?? member.email}`}>Remove</button>
                </form>
              </span>
            ) : <span class="role">{member.isOwner ? 'owner (the workspace\'s own)' : member.role}</span>}
          </li>
        ))}
      </ul>
      {view.invitations.length ? (
        <>
          <h3>Invited, not yet joined</h3>
          <ul class="rows">
            {view.invitations.map((invitation) => (
              <li>
                <span>{invitation.email} <span class="muted">as {invitation.role}, invited {when(invitation.createdAt)}</span></span>
                {isOwner ? (
                  <form method="post" action={`/workspace/invitations/${invitation.id}/withdraw`}>
                    <Csrf token={chrome.csrf} />
                    <button type="submit" class="quiet" aria-label={`Withdraw the invitation of ${invitation.email}`}>Withdraw</button>
                  </form>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {isOwner ? (
        <form method="post" action="/workspace/invitations" class="invite">
          <h3>Invite someone</h3>
          <Problem message={props.invite?.problem} />
          <Csrf token={chrome.csrf} />
          <label for="invite-email">E-mail address</label>
          <input id="invite-email" name="email" type="email" required maxlength={254} value={props.invite?.email ?? ''} />
          <label for="invite-role">Role</label>
          <select id="invite-role" name="role">{ROLES.map((role) => <option value={role} selected={role === (props.invite?.role ?? 'editor')}>{role}</option>)}</select>
          <button type="submit">Send invitation</button>
          <p class="muted">They get an e-mail with a link that signs them in and joins them to this workspace.</p>
        </form>
      ) : null}
    </section>
  );
}

function CreditsSection({ credits }: { credits: WorkspaceView['credits'] }) {
  return (
    <section class="card" aria-labelledby="credits">
      <h2 id="credits">Credits</h2>
      <p>Balance: <strong>{credits.balance}</strong> credits <span class="muted">(a video costs 1 credit per started second)</span></p>
      <p>Pitches this month: <strong>{credits.pitchesUsed}</strong> of {credits.pitchCap}</p>
      {credits.entries.length ? (
        <div class="table-wrap">
          <table class="cards">
            <caption class="visually-hidden">Credit entries, newest first</caption>
            <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Credits</th><th scope="col">Note</th></tr></thead>
            <tbody>
              {credits.entries.map((entry) => (
                <tr>
                  <td data-label="When">{when(entry.createdAt)}</td>
                  <td data-label="What">{entry.kind}{entry.productionId ? <span class="muted"> production {entry.productionId.slice(0, 8)}</span> : null}</td>
                  <td data-label="Credits" class="num">{entry.amount > 0 ? `+${entry.amount}` : entry.amount}</td>
                  <td data-label="Note">{entry.note ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p>No credit entries yet.</p>}
    </section>
  );
}
