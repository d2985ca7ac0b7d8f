/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { StageFilter } from '@vp/contracts';
import { productionsOf } from '@vp/productions';
import type { AppDeps, AppEnv } from '../env.ts';
import { ProductionsPage } from '../views/productions.tsx';
import { chromeOf } from './chrome.ts';

const PAGE_SIZE = 20;

/** `/`: the current workspace's productions, newest first, a page at a time, of one stage or all. */
export function productionRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/', async (c) => {
    const given = c.req.query('stage') || '';
    const stage = given ? StageFilter.safeParse(given) : null;
    const page = await productionsOf({ db: deps.db, appUrl: deps.config.appUrl }, c.var.caller, {
      workspaceId: c.var.workspace.workspaceId, limit: PAGE_SIZE, cursor: c.req.query('cursor') || undefined, stage: stage?.success ? stage.data : undefined,
    });
    const productions = page.productions.map((production) => ({
      id: production.id, title: production.pitch?.title ?? production.brief.intent, stage: production.stage, createdAt: new Date(production.createdAt), credits: production.creditsCharged,
    }));
    return c.html(<ProductionsPage chrome={await chromeOf(deps, c)} productions={productions} nextCursor={page.nextCursor ?? null} stage={stage?.success ? given : ''} />);
  });
  return app;
}
