import { completeSignIn, requestSignIn } from '@vp/accounts';
import type { Db } from '@vp/db';

/**
 * A signed-in browser without a browser, for tests that call `app.request()`: the session's
 * cookie header and CSRF token, made by the same sign-in link a person would use.
 */
export async function signedInSession(db: Db, email: string, options: { now?: Date } = {}) {
  const link = await requestSignIn(db, { email, signup: 'open', now: options.now });
  const signedIn = await completeSignIn(db, { token: link.token, signup: 'open', userAgent: 'Test', now: options.now });
  return { cookie: `vp_session=${signedIn.token}`, csrf: signedIn.session.csrfToken, accountId: signedIn.accountId, sessionId: signedIn.session.id, token: signedIn.token };
}
