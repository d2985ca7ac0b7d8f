import { findAccountByEmail, workspaceAccess } from '@vp/accounts';
import { DomainError, type ActorId, type GreenlightLinkView } from '@vp/contracts';
import type { Db } from '@vp/db';
import { linkChannel, linkState, readLinkToken, type LinkClaims } from '@vp/links';
import { pitchMarkdown } from '@vp/pitch';
import type { ProductionDeps } from './commands.ts';
import { withCapRetry } from './commands.ts';
import { findProduction } from './queries.ts';
import { toProduction, type ProductionWithPitch } from './read-model.ts';

/** The production commands' needs, and the link settings: whether links are on, and the secrets they are signed with. */
export type LinkDeps = Pick<ProductionDeps, 'db' | 'workflows' | 'appUrl'> & {
  linksEnabled: boolean;
  /** The signing secret, then the previous one while it is rotated (links already sent keep working). */
  secrets: string[];
};

/** An answer to a pitch through its link: the same Updates as the API, bound to the link's pitch version. */
export type LinkAnswer = { kind: 'greenlight' } | { kind: 'comment'; comment: string } | { kind: 'decline'; reason?: string };

type Link = { claims: LinkClaims; row: ProductionWithPitch; workspaceName: string; actor: ActorId };

const notFound = () => new DomainError('not_found', 'This link is not one we sent, or its production no longer exists.');
const stale = () => new DomainError('stale', 'This pitch was already answered or has a newer version; open the production page to see where it stands.');

/** `disabled` while greenlight links are switched off on this server. */
export function requireLinks(deps: Pick<LinkDeps, 'linksEnabled'>): void {
  if (!deps.linksEnabled) throw new DomainError('disabled', 'Greenlight links are switched off on this server.');
}

/** A link this server signed, for a production that exists and a recipient who may still act on it. */
async function openLink(deps: LinkDeps, token: string): Promise<Link> {
  requireLinks(deps);
  const claims = readLinkToken(deps.secrets, token);
  if (!claims) throw notFound();
  const row = await findProduction(deps.db, claims.productionId);
  if (!row) throw notFound();
  const workspace = await deps.db.workspace.findUniqueOrThrow({ where: { id: row.workspaceId }, select: { name: true } });
  return { claims, row, workspaceName: workspace.name, actor: await recipientActor(deps.db, claims, row.workspaceId) };
}

/**
 * Who acts through the link, as an id: the account the link was e-mailed to, while it may still
 * greenlight in the workspace, or the webhook endpoint it was sent to, while it exists (`revoked` otherwise).
 */
async function recipientActor(db: Db, claims: LinkClaims, workspaceId: string): Promise<ActorId> {
  const { recipient } = claims;
  if (recipient.kind === 'email') {
    const account = await findAccountByEmail(db, recipient.email);
    const access = account && (await workspaceAccess(db, account.id, workspaceId));
    if (!account || !access?.canWrite) throw new DomainError('revoked', `${recipient.email} can no longer greenlight in this workspace; this link was revoked.`);
    return `link-email:${account.id}`;
  }
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: recipient.endpointId }, select: { workspaceId: true, deletedAt: true } });
  if (!endpoint || endpoint.deletedAt || endpoint.workspaceId !== workspaceId) {
    throw new DomainError('revoked', 'The webhook endpoint this link was sent to was deleted; this link was revoked.');
  }
  return `webhook:${recipient.endpointId}`;
}

function view(deps: LinkDeps, { claims, row, workspaceName }: Link): GreenlightLinkView {
  const production = toProduction(row, deps.appUrl);
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

/** A link's view of its production, also once expired (`state: expired`). */
export async function readLink(deps: LinkDeps, token: string): Promise<{ link: GreenlightLinkView }> {
  return { link: view(deps, await openLink(deps, token)) };
}

/**
 * Greenlight, comment or decline through a link: the same workflow Update the API sends, bound
 * to the link's pitch version and recorded as the link's recipient. `expired` past its life,
 * `stale` once the pitch moved on or was answered (also when another answer won meanwhile).
 */
export async function answerLink(deps: LinkDeps, token: string, answer: LinkAnswer): Promise<{ link: GreenlightLinkView }> {
  const link = await openLink(deps, token);
  const state = view(deps, link).state;
  if (state === 'expired') throw new DomainError('expired', 'This link has expired; the workspace can still answer the pitch through the API.');
  if (state === 'stale') throw stale();
  const { productionId, pitchVersion } = link.claims;
  const { actor } = link;
  try {
    if (answer.kind === 'greenlight') await deps.workflows.greenlight(productionId, { actor, pitchVersion });
    if (answer.kind === 'comment') await deps.workflows.comment(productionId, { actor, pitchVersion, comment: answer.comment }).catch(withCapRetry);
    if (answer.kind === 'decline') await deps.workflows.decline(productionId, { actor, pitchVersion, reason: answer.reason ?? null });
  } catch (error) {
    // The pitch moved on or was answered between reading and acting (another link won).
    if (error instanceof DomainError && error.code === 'stage') throw stale();
    throw error;
  }
  return readLink(deps, token);
}
