/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { workspaceAccess } from '@vp/accounts';
import { CreateWebhookBody, DomainError, UpdateWebhookBody, type WebhookEndpointWithSecret } from '@vp/contracts';
import {
  createEndpoint, deleteEndpoint, getEndpoint, listDeliveries, listEndpoints, redeliver, rollSecret, sendTestEvent, updateEndpoint,
} from '@vp/webhooks';
import type { Domain } from '@vp/domain';
import type { AppDeps, AppEnv } from '../env.ts';
import { EndpointPage, WebhooksPage, type EndpointForm } from '../views/webhooks.tsx';
import { chromeOf, doneNotice } from './chrome.ts';
import { field, fields } from './forms.ts';

const PAGE_SIZE = 25;
const DONE = {
  deleted: 'The endpoint is deleted: nothing more is sent to it.', enabled: 'The endpoint is switched on.', disabled: 'The endpoint is switched off: nothing is sent to it.',
  tested: 'A test event (ping) is on its way: it shows below.', redelivered: 'The event is sent again: the new delivery shows below.',
};

/** A form's fields read with the API's own schema, each problem under its field's name. */
function parsed<T>(result: { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }): T {
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: String(issue.path[0] ?? ''), message: issue.message }));
  throw new DomainError('invalid', issues.map((issue) => issue.message).join(' '), { issues });
}

const problemsOf = (error: unknown): Record<string, string> => {
  if (!(error instanceof DomainError) || error.code !== 'invalid') throw error;
  return Object.fromEntries((error.details.issues ?? [{ path: '', message: error.message }]).map((issue) => [issue.path.split('.')[0]!, issue.message]));
};

/** `/webhooks`: the workspace's endpoints; `/webhooks/{id}`: one endpoint, its deliveries and what may be done with it. */
export function webhookRoutes(deps: AppDeps, domain: Domain) {
  const app = new Hono<AppEnv>();
  const { webhooks } = domain;

  async function list(c: Context<AppEnv>, form?: EndpointForm, status: 200 | 400 = 200) {
    const { endpoints, nextCursor } = await listEndpoints(webhooks, c.var.caller, { workspaceId: c.var.workspace.workspaceId, limit: PAGE_SIZE, cursor: c.req.query('cursor') || undefined });
    return c.html(<WebhooksPage chrome={await chromeOf(deps, c)} endpoints={endpoints} nextCursor={nextCursor ?? null} form={form} notice={doneNotice(c, DONE)} />, status);
  }

  /** One endpoint's page; after a create or a roll, with its secret (an answer, never a redirect: no address holds it). */
  async function one(c: Context<AppEnv>, id: string, secret?: WebhookEndpointWithSecret) {
    const { endpoint } = await getEndpoint(webhooks, c.var.caller, id);
    const { deliveries, nextCursor } = await listDeliveries(webhooks, c.var.caller, id, { limit: PAGE_SIZE, cursor: c.req.query('cursor') || undefined });
    const access = await workspaceAccess(deps.db, c.var.caller.accountId, endpoint.workspaceId);
    return c.html(<EndpointPage chrome={await chromeOf(deps, c)} endpoint={endpoint} deliveries={deliveries} nextCursor={nextCursor ?? null}
      canWrite={access?.canWrite ?? false} secret={secret?.secret ?? null} notice={doneNotice(c, DONE)} />);
  }

  app.get('/', (c) => list(c));

  // The answer shows the signing secret, once: it is kept sealed and never shown again.
  app.post('/', async (c) => {
    const events = await fields(c, 'events');
    const form = { url: await field(c, 'url'), description: await field(c, 'description'), events };
    try {
      const body = parsed(CreateWebhookBody.safeParse({
        workspaceId: c.var.workspace.workspaceId, url: form.url.trim(), description: form.description.trim() || null,
        ...(events.length ? { events } : {}),
      }));
      const { endpoint } = await createEndpoint(webhooks, c.var.caller, body);
      return one(c, endpoint.id, endpoint);
    } catch (error) {
      return list(c, { values: form, problems: problemsOf(error) }, 400);
    }
  });

  app.get('/:id', (c) => one(c, c.req.param('id')));

  const back = (c: Context, done: keyof typeof DONE) => c.redirect(`/webhooks/${c.req.param('id')}?done=${done}`, 303);

  app.post('/:id/enable', async (c) => {
    await updateEndpoint(webhooks, c.var.caller, c.req.param('id'), parsed(UpdateWebhookBody.safeParse({ enabled: true })));
    return back(c, 'enabled');
  });
  app.post('/:id/disable', async (c) => {
    await updateEndpoint(webhooks, c.var.caller, c.req.param('id'), parsed(UpdateWebhookBody.safeParse({ enabled: false })));
    return back(c, 'disabled');
  });
  app.post('/:id/roll-secret', async (c) => one(c, c.req.param('id'), (await rollSecret(webhooks, c.var.caller, c.req.param('id'))).endpoint));
  app.post('/:id/test', async (c) => {
    await sendTestEvent(webhooks, c.var.caller, c.req.param('id'));
    return back(c, 'tested');
  });
  app.post('/:id/deliveries/:deliveryId/redeliver', async (c) => {
    await redeliver(webhooks, c.var.caller, c.req.param('id'), c.req.param('deliveryId'));
    return back(c, 'redelivered');
  });
  app.post('/:id/delete', async (c) => {
    await deleteEndpoint(webhooks, c.var.caller, c.req.param('id'));
    return c.redirect('/webhooks?done=deleted', 303);
  });

  return app;
}
