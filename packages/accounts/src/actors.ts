import type { DbOrTx } from '@vp/db';

/** The timeline's actor and the name a person reads for it (spec: ProductionEvent.actorName). */
export type NamedActor = { actor: string; actorName: string | null };

/** The service itself, as a timeline's actor (DECISIONS: timeline actors `system`). */
export const SYSTEM_ACTOR: NamedActor = { actor: 'system', actorName: 'Video Production Service' };
const AUTO_ACTOR: NamedActor = { actor: 'auto', actorName: 'Auto-greenlight' };

/**
 * An actor as the timeline records it, from the id a caller or a workflow carries (ActorId):
 * a key or a user by its account's name (else e-mail), a link e-mailed to an account as
 * `email:<address>`, a webhook endpoint's link unnamed. An actor that came with its name (as
 * histories written before ids alone were carried hold it) is kept as it came.
 */
export async function namedActor(db: DbOrTx, ref: { actor: string; actorName?: string | null }): Promise<NamedActor> {
  if (ref.actorName !== undefined) return { actor: ref.actor, actorName: ref.actorName };
  const [kind, id = ''] = splitOnce(ref.actor);
  switch (kind) {
    case 'system': return SYSTEM_ACTOR;
    case 'auto': return AUTO_ACTOR;
    case 'key': {
      const key = await db.apiKey.findUnique({ where: { id }, select: { account: { select: { name: true, email: true } } } });
      return { actor: ref.actor, actorName: key ? key.account.name ?? key.account.email : null };
    }
    case 'user': {
      const account = await db.account.findUnique({ where: { id }, select: { name: true, email: true } });
      return { actor: ref.actor, actorName: account ? account.name ?? account.email : null };
    }
    case 'link-email': {
      const account = await db.account.findUnique({ where: { id }, select: { email: true } });
      return account ? { actor: `email:${account.email}`, actorName: account.email } : { actor: ref.actor, actorName: null };
    }
    default: return { actor: ref.actor, actorName: null };
  }
}

function splitOnce(actor: string): [string, string?] {
  const at = actor.indexOf(':');
  return at < 0 ? [actor] : [actor.slice(0, at), actor.slice(at + 1)];
}
