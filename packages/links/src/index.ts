export { linkExpiry, mintLinkToken, readLinkToken, type LinkClaims, type LinkRecipient } from './token.ts';
export { linkUrl, mintActionLinks, type ActionLinks } from './urls.ts';
export { linkActor, linkChannel, linkState } from './state.ts';
export { pitchEmail, type PitchEmailInput } from './email.ts';
export { noticeEmail, type NoticeEmailInput } from './notice-email.ts';
