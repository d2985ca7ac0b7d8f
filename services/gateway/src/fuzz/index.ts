import { LINK_LIFETIME_MS } from '@vp/contracts';
import { mintLinkToken } from '@vp/links';

export { ANSWER_WITHIN_MS, fuzz, type Finding, type FuzzOptions, type FuzzReport } from './run.ts';
export { settleWorkflows, type Settled } from './settle.ts';
export { summary } from './summary.ts';

/**
 * The configuration a fuzzed gateway and its workers run with, beside their defaults: each
 * request from its own address (behind a trusted proxy) so the limits per address do not answer
 * most of them; a render's wait short, since no answer may take 5 s; a webhook delivery tried
 * once and then in an hour, 2 s to answer, so that the endpoints a run creates (on public
 * addresses nothing answers at here) are not retried while the run's workflows are let settle.
 */
export const FUZZ_ENV = {
  TRUST_PROXY: 'true', RENDER_WAIT_MS: '1000', WEBHOOK_RETRY_SCHEDULE_MS: '3600000', WEBHOOK_TIMEOUT_MS: '2000',
};

/** A real picture (16×16 pixels, PNG) for the renders form's images: a render is really started with it. */
export const SAMPLE_PNG = new Uint8Array(Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAACXBIWXMAAAABAAAAAQBPJcTWAAAArUlEQVR4nGOoZ/iHFTEgoX8Mf4GI4f9/ECJTgxyDHRpiQEK2DLZAxGBnB0KDXIMJAy8QvWgwAKLHTSZAJMXAA0T+DHxAdKtTC4jQNexumQJUncjAEMTAANSwumsuRMPZmh6g6nw5BmBogRDEbkiI2oJdABFDDmmok6igIU+P4Vyf3rH2DFMGlLj00GTYPCWEGhpo6QdlQ4api8OetYm3qREXrEANQATUAES4Ig4A8Rjkvc+vwVYAAAAASUVORK5CYII=',
  'base64',
));

/**
 * Greenlight links for the productions a run made, as their owner's e-mails carry them (pitch
 * versions 1 and 2), for `/production-links/{token}` and `/go/{token}`; other path parameters
 * take the ids seen.
 */
export function linkTokens(secret: string, email: string) {
  const minted = new Map<string, string[]>();
  const expiresAt = new Date(Date.now() + LINK_LIFETIME_MS);
  return (prefix: string, seen: (prefix: string) => readonly string[]): readonly string[] => {
    if (prefix !== '/production-links' && prefix !== '/go') return seen(prefix);
    return seen('/v1/productions').flatMap((productionId) => {
      if (!minted.has(productionId)) {
        minted.set(productionId, [1, 2].map((pitchVersion) => mintLinkToken(secret, { productionId, pitchVersion, recipient: { kind: 'email', email }, expiresAt })));
      }
      return minted.get(productionId)!;
    });
  };
}
