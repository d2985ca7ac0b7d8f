import type { Scope } from '@vp/contracts';
import type { ActorRef } from '@vp/workflows/definitions';

/** Who a request acts as: an API key of an account, limited to the key's scopes. */
export type Principal = {
  keyId: string;
  accountId: string;
  scopes: Scope[];
  /** How the timeline names the caller (`key:<keyId>`, with the account's name or e-mail). */
  actor: ActorRef;
};
