/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { workspaceAccess } from '@vp/accounts';
import { CancelBody, CommentBody, DeclineBody, DomainError, GreenlightBody } from '@vp/contracts';
import { cancel, comment, decline, greenlight, productionDetail } from '@vp/productions';
import { shareVideoUrl } from '@vp/projects';
import type { Domain } from '@vp/domain';
import type { AppDeps, AppEnv } from '../env.ts';
import { ProductionPage, type ProductionView } from '../views/production.tsx';
import { chromeOf, doneNotice } from './chrome.ts';
import { field } from './forms.ts';

/** How often the page asks for progress while the video is made. */
export const PROGRESS_INTERVAL_MS = 2000;

const DONE = {
  greenlit: 'Greenlit: the video is being made. This page follows it.',
  commented: 'Your comments are with the writer: the next pitch appears here.',
  declined: 'Declined: nothing was charged.',
  cancelled: 'Cancelled.',
  created: 'Created: the pitch is being written, free of charge. This page shows it when it is ready.',
};

/** A form's fields read with the API's own schema, so the app takes what the API takes. */
function parsed<T>(schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw new DomainError('invalid', issues.map((issue) => issue.message).join(' '), { issues });
}

const pitchVersion = async (c: Context) => {
  const value = await field(c, 'pitchVersion');
  return /^\d+$/.test(value) ? Number(value) : undefined;
};
const reason = async (c: Context) => (await field(c, 'reason')).trim() || undefined;

/** `/productions/{id}`: the page every production's `pageUrl` leads to, and the answers it posts. */
export function productionPageRoutes(deps: AppDeps, domain: Domain) {
  const app = new Hono<AppEnv>();
  const { productions } = domain;

  async function view(c: Context<AppEnv>, id: string): Promise<ProductionView> {
    const detail = await productionDetail(productions, c.var.caller, id);
    const access = await workspaceAccess(deps.db, c.var.caller.accountId, detail.production.workspaceId);
    const refund = await deps.db.creditEntry.findFirst({ where: { productionId: id, kind: 'refund' } });
    const delivery = detail.production.delivery;
    return {
      ...detail, canAct: access?.canWrite ?? false, refunded: refund ? Math.abs(refund.amount) : 0,
      videoUrl: delivery ? shareVideoUrl(deps.config.appUrl, delivery.exportId) : null,
    };
  }

  async function show(c: Context<AppEnv>, extra: Partial<ProductionView> = {}, status: 200 | 400 = 200) {
    const found = { ...(await view(c, c.req.param('id')!)), notice: doneNotice(c, DONE), ...extra };
    return c.html(<ProductionPage chrome={await chromeOf(deps, c)} view={found} progressIntervalMs={PROGRESS_INTERVAL_MS} />, status);
  }

  app.get('/:id', (c) => show(c));

  /** What the page's script polls while the video is made: the stage and render phase, nothing else. */
  app.get('/:id/progress', async (c) => {
    const { production, queue } = await productionDetail(productions, c.var.caller, c.req.param('id'));
    return c.json({ stage: production.stage, phase: queue?.phase ?? null, retrying: queue?.retrying ?? false, terminal: production.terminal ?? false });
  });

  const done = (c: Context, what: keyof typeof DONE) => c.redirect(`/productions/${c.req.param('id')}?done=${what}`, 303);

  app.post('/:id/greenlight', async (c) => {
    await greenlight(productions, c.var.caller, c.req.param('id'), parsed(GreenlightBody, { pitchVersion: await pitchVersion(c) }));
    return done(c, 'greenlit');
  });

  app.post('/:id/comment', async (c) => {
    const text = await field(c, 'comment');
    try {
      await comment(productions, c.var.caller, c.req.param('id'), parsed(CommentBody, { comment: text, pitchVersion: await pitchVersion(c) }));
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'invalid') throw error;
      return show(c, { commentProblem: error.message, comment: text }, 400);
    }
    return done(c, 'commented');
  });

  app.post('/:id/decline', async (c) => {
    await decline(productions, c.var.caller, c.req.param('id'), parsed(DeclineBody, { reason: await reason(c) }));
    return done(c, 'declined');
  });

  app.post('/:id/cancel', async (c) => {
    await cancel(productions, c.var.caller, c.req.param('id'), parsed(CancelBody, { reason: await reason(c) }));
    return done(c, 'cancelled');
  });

  return app;
}
