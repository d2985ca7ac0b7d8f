import type { ActiveSession, RelyingParty, WorkspaceAccess } from '@vp/accounts';
import type { Caller } from '@vp/contracts';
import type { RateLimiter } from '@vp/db';
import type { FrontDoorDeps } from '@vp/domain';
import type { Mailer } from '@vp/mail';

/** What the app runs on; tests build it around their own database, mailer and clock. */
export type AppDeps = FrontDoorDeps & {
  /** Sign-in links and invitations go out through it; null: none are sent (tests, production without SMTP). */
  mailer: Mailer | null;
  limiter: RateLimiter;
  /** The time rules are judged by (sign-in links, sessions); tests move it. */
  now?: () => Date;
};

/** Where passkeys belong, and the origin forms must come from: both from APP_URL. */
export type AppSite = { origin: string; secure: boolean; rp: RelyingParty };

/** Per-request values set by middleware. */
export type AppEnv = {
  Variables: {
    secureHeadersNonce?: string;
    /** The signed-in browser, when there is one. */
    session: ActiveSession | null;
    /** On signed-in routes: the account acting, as the domain names it. */
    caller: Caller;
    /** On signed-in routes: the workspace the pages show. */
    workspace: WorkspaceAccess;
  };
};
