export { OAuthError, type OAuthErrorCode } from './errors.ts';
export * from './lifetimes.ts';
export { acceptableRedirect, redirectMatches } from './redirects.ts';
export { clientFor, registerClient, type ClientLookup, type OAuthClientRecord } from './clients.ts';
export {
  approveAuthorization, checkAuthorization, denyAuthorization, isAuthorizationRefusal,
  type AuthorizationParams, type AuthorizationRefusal, type AuthorizationRequest,
} from './authorize.ts';
export { exchangeCode, refreshTokens, revokeToken, type TokenResponse } from './tokens.ts';
export { authenticateAccessToken, isAccessToken, type AccessGrant } from './access.ts';
export { disconnect, listConnections, type Connection } from './connections.ts';
