import type { Context } from 'hono';
import { workspacesOf } from '@vp/accounts';
import type { AppDeps, AppEnv } from '../env.ts';
import type { Chrome } from '../views/layout.tsx';

/** What the header of every signed-in page shows. */
export async function chromeOf(deps: AppDeps, c: Context<AppEnv>): Promise<Chrome> {
  const session = c.var.session!;
  return {
    nonce: c.var.secureHeadersNonce ?? '',
    csrf: session.csrfToken,
    account: { email: session.email, name: session.name },
    workspace: c.var.workspace,
    workspaces: await workspacesOf(deps.db, c.var.caller),
    path: c.req.path,
  };
}

/**
 * After a form, the page it leads back to says what was done: `?done=<what>` names one of a
 * page's fixed sentences (never text from the request), so a reload shows it again and acts on nothing.
 */
export function doneNotice(c: Context, sentences: Record<string, string>): string | null {
  const done = c.req.query('done');
  return done && Object.hasOwn(sentences, done) ? sentences[done]! : null;
}
