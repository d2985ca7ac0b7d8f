/**
 * An OAuth error as RFC 6749 names it (`invalid_request`, `invalid_grant`, …), with words a
 * developer can act on. The gateway answers it as `{ error, error_description }`; the app's
 * authorization page shows it, or sends it back to the client's redirect URI when that is known good.
 */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 401 | 403 = 400,
  ) {
    super(description);
  }
}

export type OAuthErrorCode =
  | 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type'
  | 'invalid_scope' | 'invalid_target' | 'access_denied' | 'invalid_redirect_uri' | 'invalid_client_metadata'
  | 'unsupported_token_type' | 'server_error';
