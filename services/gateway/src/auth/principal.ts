import type { Caller, Scope } from '@vp/contracts';

/** Who a request acts as: an API key of an account (actor `key:<keyId>`), limited to the key's scopes. */
export type Principal = Caller & { keyId: string; scopes: Scope[] };
