import { randomUUID } from 'node:crypto';
import { LINK_LIFETIME_MS, type BriefInput } from '@vp/contracts';
import type { Db } from '@vp/db';
import { mintLinkToken } from '@vp/links';
import { findProduction, toProduction } from '@vp/productions';
import { ensureExport, ensureProject, finishExport, startExport } from '@vp/projects';
import { composeProduction } from '@vp/render';
import { seedAccount, waitFor } from '@vp/testing';
import { withKey } from './gateway.ts';

type Stack = { app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> }; config: { secrets: { links: string } } };

/**
 * A production whose first pitch awaits an answer, made through the API by a new account (100
 * credits, every scope), with a greenlight link minted for its owner as the e-mails carry one.
 */
export async function pitchReady(stack: Stack, db: Db, brief: BriefInput = { intent: 'Announce faster exports in release 2.4' }) {
  const me = await seedAccount(db, { credits: 100 });
  const call = async (path: string, init: { method?: string; json?: unknown } = {}) => stack.app.request(path, withKey(me.apiKey, init));
  const created = await call('/v1/productions', { json: { brief } });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { production } = (await created.json()) as { production: { id: string } };
  const stage = async () => (await db.production.findUniqueOrThrow({ where: { id: production.id } })).stage;
  await waitFor(async () => (await stage()) === 'pitch_ready', { what: 'the first pitch' });
  const token = mintLinkToken(stack.config.secrets.links, {
    productionId: production.id, pitchVersion: 1, recipient: { kind: 'email', email: me.account.email }, expiresAt: new Date(Date.now() + LINK_LIFETIME_MS),
  });
  return { ...me, call, production, token, stage };
}

/**
 * A pitch-ready production made to look delivered without the render farm: its project composed
 * from the pitch as a render worker composes it, and one finished export (whose files do not
 * exist: the pages read only its row). For tests of the delivery pages and their forms.
 */
export async function deliveredProject(stack: Stack, db: Db) {
  const ready = await pitchReady(stack, db);
  const row = (await findProduction(db, ready.production.id))!;
  const { brief, pitch } = toProduction(row, 'http://app.invalid');
  const [projectId, exportId] = [randomUUID(), randomUUID()];
  await ensureProject(db, { id: projectId, workspaceId: row.workspaceId, productionId: row.id, title: pitch!.title, compose: () => composeProduction({ brief, pitch: pitch! }) });
  await ensureExport(db, { id: exportId, projectId, version: 1 });
  await startExport(db, exportId);
  await finishExport(db, exportId, { video: `exports/${exportId}/video.mp4`, poster: `exports/${exportId}/poster.jpg` }, { bytes: 1000, durationMs: 10_000, width: 1920, height: 1080 });
  await db.production.update({ where: { id: row.id }, data: { stage: 'delivered', projectId } });
  return { ...ready, projectId, exportId };
}
