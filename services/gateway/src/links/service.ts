import type { Client } from '@temporalio/client';
import { findAccountByEmail, workspaceAccess } from '@vp/accounts';
import type { Config } from '@vp/config';
import { ApiError, type GreenlightLinkView } from '@vp/contracts';
import type { Db } from '@vp/db';
import { linkActor, linkChannel, linkState, readLinkToken, type LinkClaims } from '@vp/links';
import { pitchMarkdown } from '@vp/pitch';
import { findProduction, toProduction, type ProductionWithPitch } from '@vp/productions';
import { commentUpdate, declineUpdate, greenlightUpdate } from '@vp/workflows/definitions';
import { updateProduction } from '../productions/commands.ts';

export type LinkDeps = { config: Config; db: Db; temporal: () => Client };
type Link = { claims: LinkClaims; row: ProductionWithPitch; workspaceName: string };

export type LinkAction =
  | { kind: 'greenlight' }
  | { kind: 'comment'; comment: string }
  | { kind: 'decline'; reason?: string };

const notFound = () => new ApiError(404, 'This link is not one we sent, or its production no longer exists.', 'not_found');

/** 503 `disabled` while greenlight links are switched off on this server. */
export function requireLinks(config: Config) {
  if (!config.switches.links) throw new ApiError(503, 'Greenlight links are switched off on this server.', 'disabled');
}

/** A link this server signed, for a production that exists and a recipient who may still act on it. */
async function openLink(deps: LinkDeps, token: string): Promise<Link> {
  requireLinks(deps.config);
  const { links, previousLinks } = deps.config.secrets;
  const claims = readLinkToken(previousLinks ? [links, previousLinks] : links, token);
  if (!claims) throw notFound();
  const row = await findProduction(deps.db, claims.productionId);
  if (!row) throw notFound();
  const workspace = await deps.db.workspace.findUniqueOrThrow({ where: { id: row.workspaceId }, select: { name: true } });
  await requireRecipient(deps.db, claims, row.workspaceId);
  return { claims, row, workspaceName: workspace.name };
}

/** 403 `revoked`: the person can no longer greenlight in the workspace, or the endpoint was deleted. */
async function requireRecipient(db: Db, claims: LinkClaims, workspaceId: string) {
  const { recipient } = claims;
  if (recipient.kind === 'email') {
    const account = await findAccountByEmail(db, recipient.email);
    const access = account && (await workspaceAccess(db, account.id, workspaceId));
    if (!access?.canWrite) throw new ApiError(403, `${recipient.email} can no longer greenlight in this workspace; this link was revoked.`, 'revoked');
  } else {
    const endpoint = await db.webhookEndpoint.findUnique({ where: { id: recipient.endpointId }, select: { workspaceId: true, deletedAt: true } });
    if (!endpoint || endpoint.deletedAt || endpoint.workspaceId !== workspaceId) {
      throw new ApiError(403, 'The webhook endpoint this link was sent to was deleted; this link was revoked.', 'revoked');
    }
  }
}

function view(deps: LinkDeps, { claims, row, workspaceName }: Link): GreenlightLinkView {
  const production = toProduction(row, deps.config.appUrl);
  return {
    productionId: production.id,
    workspaceName,
    stage: production.stage,
    state: linkState(claims, { stage: production.stage, pitchVersion: row.pitchVersion }),
    pitchVersion: claims.pitchVersion,
    currentPitchVersion: row.pitchVersion ?? claims.pitchVersion,
    intent: production.brief.intent,
    origin: production.source.origin,
    format: production.brief.format,
    pitch: production.pitch,
    pitchMarkdown: production.pitch ? pitchMarkdown(production.pitch) : null,
    delivery: production.delivery,
    pageUrl: production.pageUrl!,
    revisionsLeft: production.revisionsLeft,
    expiresAt: claims.expiresAt.toISOString(),
    channel: linkChannel(claims.recipient),
  };
}

/** GET: the link's view, also once expired. */
export async function read(deps: LinkDeps, token: string): Promise<{ link: GreenlightLinkView }> {
  return { link: view(deps, await openLink(deps, token)) };
}

/**
 * Greenlight, comment or decline through a link: the same workflow Update the API sends,
 * bound to the link's pitch version and recorded as the link's recipient.
 */
export async function act(deps: LinkDeps, token: string, action: LinkAction): Promise<{ link: GreenlightLinkView }> {
  const link = await openLink(deps, token);
  const state = view(deps, link).state;
  if (state === 'expired') throw new ApiError(410, 'This link has expired; the workspace can still answer the pitch through the API.', 'expired');
  if (state === 'stale') throw stale();
  const { productionId, pitchVersion, recipient } = link.claims;
  const actor = linkActor(recipient);
  const client = deps.temporal();
  try {
    if (action.kind === 'greenlight') await updateProduction(client, productionId, greenlightUpdate, { ...actor, pitchVersion });
    if (action.kind === 'comment') await updateProduction(client, productionId, commentUpdate, { ...actor, pitchVersion, comment: action.comment });
    if (action.kind === 'decline') await updateProduction(client, productionId, declineUpdate, { ...actor, pitchVersion, reason: action.reason ?? null });
  } catch (error) {
    // The pitch moved on or was answered between reading and acting (another link won).
    if (error instanceof ApiError && error.code === 'stage') throw stale();
    throw error;
  }
  return read(deps, token);
}

const stale = () => new ApiError(409, 'This pitch was already answered or has a newer version; open the production page to see where it stands.', 'stale');
