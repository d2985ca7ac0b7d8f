/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { listProductions, toProduction } from '@vp/productions';
import type { AppDeps, AppEnv } from '../env.ts';
import { ProductionsPage } from '../views/productions.tsx';
import { chromeOf } from './chrome.ts';

const PAGE_SIZE = 20;

/** `/`: the current workspace's productions, newest first, a page at a time. */
export function productionRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/', async (c) => {
    const page = await listProductions(deps.db, { workspaceId: c.var.workspace.workspaceId, limit: PAGE_SIZE, cursor: c.req.query('cursor') || undefined });
    const productions = page.rows.map((row) => {
      const production = toProduction(row, deps.config.appUrl);
      return { id: production.id, title: production.pitch?.title ?? production.brief.intent, stage: production.stage, createdAt: row.createdAt, credits: production.creditsCharged };
    });
    return c.html(<ProductionsPage chrome={await chromeOf(deps, c)} productions={productions} nextCursor={page.nextCursor} />);
  });
  return app;
}
