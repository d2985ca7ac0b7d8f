import type { LinkAction } from '@vp/contracts';
import { linkExpiry, mintLinkToken, type LinkRecipient } from './token.ts';

export type ActionLinks = Record<LinkAction, string>;

/** `{APP_URL}/go/<token>?action=<action>`: the app page that shows the pitch and acts through the public API. */
export function linkUrl(appUrl: string, token: string, action: LinkAction): string {
  return `${appUrl}/go/${token}?action=${action}`;
}

/** The greenlight, comment and decline links of one pitch version for one recipient. */
export function mintActionLinks(
  options: { secret: string; appUrl: string },
  input: { productionId: string; pitchVersion: number; recipient: LinkRecipient; mintedAt: Date },
): ActionLinks {
  const token = mintLinkToken(options.secret, {
    productionId: input.productionId, pitchVersion: input.pitchVersion, recipient: input.recipient, expiresAt: linkExpiry(input.mintedAt),
  });
  return {
    greenlight: linkUrl(options.appUrl, token, 'greenlight'),
    comment: linkUrl(options.appUrl, token, 'comment'),
    decline: linkUrl(options.appUrl, token, 'decline'),
  };
}
