import { createWorkspace, setMember } from '@vp/accounts';
import { CreateProductionBody } from '@vp/contracts';
import type { Db } from '@vp/db';
import { grant } from '@vp/ledger';
import { createProduction, greenlight } from '@vp/productions';
import { waitFor } from '@vp/testing';
import { domainDeps } from '@vp/domain';
import { createApp } from '@vp/app';
import { signedInSession, type TestApp } from '@vp/app/testing';

/** A render on a busy machine takes its time. */
export const RENDER = { timeoutMs: 180_000, intervalMs: 250 };

export type Member = Awaited<ReturnType<typeof member>>;

/**
 * A signed-in account (no browser: its session's cookie and CSRF token) that asks the app as its
 * own pages would: GETs, and forms posted from the app's origin carrying the session's token.
 */
export async function member(app: TestApp, email: string) {
  const session = await signedInSession(app.deps.db, email);
  const get = (path: string) => app.app.request(path, { headers: { cookie: session.cookie } });
  const post = (path: string, fields: Record<string, string> = {}, options: { csrf?: string | null; headers?: Record<string, string> } = {}) => {
    const csrf = options.csrf === undefined ? session.csrf : options.csrf;
    const body = new URLSearchParams(csrf === null ? fields : { ...fields, _csrf: csrf }).toString();
    return app.app.request(path, {
      method: 'POST', body,
      headers: { cookie: session.cookie, origin: app.url, 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    });
  };
  const caller = { accountId: session.accountId, actor: `user:${session.accountId}`, via: 'app' } as const;
  const workspaceId = (await app.deps.db.workspace.findFirstOrThrow({ where: { ownerId: session.accountId, personal: true } })).id;
  return { ...session, email, caller, workspaceId, get, post };
}

/** The same app (database, settings, port) made over other deps: say, another Temporal client or rate-limiter clock. */
export const appWith = (app: TestApp, deps: Partial<Parameters<typeof createApp>[0]>): TestApp => ({ ...app, app: createApp({ ...app.deps, ...deps }) });

/** A shared workspace `owner` owns. */
export const teamOf = async (db: Db, owner: Member) => (await createWorkspace(db, { ownerId: owner.accountId, name: `${owner.email}'s team` })).id;

/** Adds `who` to the workspace with a role. */
export const join = (db: Db, workspaceId: string, who: Member, role: 'editor' | 'viewer') => setMember(db, { workspaceId, accountId: who.accountId, role });

/** A 5-second video of `owner`'s workspace (personal unless named), made by the real workers and render worker: pitched, greenlit, delivered. */
export async function deliveredVideo(app: TestApp, owner: Member, intent: string, options: { workspaceId?: string; brief?: Record<string, unknown> } = {}) {
  const { db } = app.deps;
  const { productions } = domainDeps(app.deps);
  await grant(db, owner.accountId, 100, 'test');
  const body = CreateProductionBody.parse({ workspaceId: options.workspaceId ?? owner.workspaceId, brief: { intent, format: { durationMs: 5000 }, ...options.brief } });
  const { production } = await createProduction(productions, owner.caller, body);
  const stage = async () => db.production.findUniqueOrThrow({ where: { id: production.id } });
  await waitFor(async () => (await stage()).stage === 'pitch_ready', { what: 'the pitch', timeoutMs: 60_000 });
  await greenlight(productions, owner.caller, production.id, { pitchVersion: 1 });
  const delivered = await waitFor(async () => {
    const row = await stage();
    if (row.stage === 'failed') throw new Error(`The production failed: ${row.error}`);
    return row.stage === 'delivered' ? row : undefined;
  }, { what: 'the delivery', ...RENDER });
  const projectId = delivered.projectId!;
  return { productionId: production.id, projectId, path: `/projects/${projectId}` };
}

/** Waits for every export of a project to be done. */
export const exportsDone = (db: Db, projectId: string) =>
  waitFor(async () => (await db.export.count({ where: { projectId, status: { not: 'done' } } })) === 0, { what: 'every export', ...RENDER });

/** The fields a browser sends for a page's first form posting to `action`, as the page fills them in (hono/jsx's markup). */
export function fieldsOf(page: string, action = '/versions'): Record<string, string> {
  const text = (html: string) => html.replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name]!);
  const start = page.search(new RegExp(`<form method="post" action="[^"]*${action.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`));
  const form = page.slice(start, page.indexOf('</form>', start));
  const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
  const fields: Record<string, string> = {};
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    const name = attribute(tag, 'name');
    if (!name) continue;
    // A ticked checkbox is sent as `on`; one not ticked, not at all.
    if (attribute(tag, 'type') === 'checkbox') {
      if (/\bchecked(="")?/.test(tag)) fields[name] = 'on';
    } else fields[name] = text(attribute(tag, 'value') ?? '');
  }
  for (const [, name, value] of form.matchAll(/<textarea[^>]*\bname="([^"]+)"[^>]*>([^<]*)<\/textarea>/g)) fields[name!] = text(value!).replace(/\n/g, '\r\n');
  for (const [, name, options] of form.matchAll(/<select[^>]*\bname="([^"]+)"[^>]*>(.*?)<\/select>/gs)) fields[name!] = text(/<option selected(?:="")?>([^<]*)</.exec(options!)![1]!);
  return fields;
}
