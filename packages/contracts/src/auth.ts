import { z } from 'zod';

export const SCOPES = ['productions', 'renders', 'capture', 'import'] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

export const ROLES = ['owner', 'editor', 'viewer'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** Owners and editors may write; viewers read. */
export function canWrite(role: Role): boolean {
  return role === 'owner' || role === 'editor';
}

export const API_KEY_PREFIX = 'svc_live_';
/** The list shows this many leading characters of a key. */
export const API_KEY_DISPLAY_PREFIX_LENGTH = 12;

/**
 * The app's session cookie: `__Host-` prefixed on https (host-only, Secure, Path=/), plain on
 * http (a browser refuses the prefix there). The gateway knows both, to tell a browser session
 * on /v1 from a missing key.
 */
export const SESSION_COOKIE = { secure: '__Host-vp_session', plain: 'vp_session' } as const;
