import type { ApiClient } from './client.ts';

/** The calls on `/v1/keys` that need a key. */
export function keysApi(api: ApiClient) {
  return {
    /** Revokes the calling key at once (signing a tool out); a revoked key answers 401 from then on. */
    revokeCurrent: async (): Promise<void> => {
      await api.DELETE('/v1/keys/current');
    },
  };
}
