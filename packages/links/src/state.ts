import type { LinkChannel, LinkState, Stage } from '@vp/contracts';
import type { LinkClaims, LinkRecipient } from './token.ts';

/**
 * `expired` past its lifetime (whatever else holds); `stale` once the pitch moved on or was
 * answered; otherwise `open`.
 */
export function linkState(claims: LinkClaims, production: { stage: Stage; pitchVersion: number | null }, now = new Date()): LinkState {
  if (now.getTime() >= claims.expiresAt.getTime()) return 'expired';
  if (production.stage !== 'pitch_ready' || production.pitchVersion !== claims.pitchVersion) return 'stale';
  return 'open';
}

/** How the timeline names an action taken through a link. */
export function linkActor(recipient: LinkRecipient): { actor: string; actorName: string | null } {
  return recipient.kind === 'email'
    ? { actor: `email:${recipient.email}`, actorName: recipient.email }
    : { actor: `webhook:${recipient.endpointId}`, actorName: null };
}

export function linkChannel(recipient: LinkRecipient): LinkChannel {
  return recipient.kind === 'email' ? 'email' : 'webhook';
}
