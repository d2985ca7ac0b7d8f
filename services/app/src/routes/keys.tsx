/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { createKey, listKeys, revokeKey } from '@vp/accounts';
import type { AppDeps, AppEnv } from '../env.ts';
import { KeysPage } from '../views/keys.tsx';
import { chromeOf, doneNotice } from './chrome.ts';
import { field, fields, issuesByField } from './forms.ts';

/** /keys: the person's API keys (spec: App key management). */
export function keyRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  async function show(c: Context<AppEnv>, extra: Omit<Parameters<typeof KeysPage>[0], 'chrome' | 'keys'> = {}, status: 200 | 400 = 200) {
    const keys = await listKeys(deps.db, c.var.caller);
    return c.html(<KeysPage chrome={await chromeOf(deps, c)} keys={keys} notice={doneNotice(c, { revoked: 'The key is revoked: it no longer works.' })} {...extra} />, status);
  }

  app.get('/', (c) => show(c));

  // The answer to the form shows the new key, once: it is never stored, so never shown again.
  app.post('/', async (c) => {
    const form = { name: await field(c, 'name'), scopes: await fields(c, 'scopes') };
    try {
      const key = await createKey(deps.db, c.var.caller, { ...form, madeBy: 'app' });
      return show(c, { created: { apiKey: key.apiKey, name: form.name.trim() } });
    } catch (error) {
      return show(c, { form, problems: issuesByField(error) }, 400);
    }
  });

  app.post('/:id/revoke', async (c) => {
    await revokeKey(deps.db, c.var.caller, c.req.param('id'));
    return c.redirect('/keys?done=revoked', 303);
  });

  return app;
}
