import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { DomainError } from '@vp/contracts';
import { windowAt } from '@vp/db';
import { clientAddress } from '@vp/net';
import type { AppDeps, AppEnv } from '../env.ts';

/**
 * Sign-in requests a minute (the gateway's fixed one-minute windows, shared by every instance):
 * per address, every form posted without a session (links asked for and used, passkey prompts);
 * per e-mail address, the links asked for it, so that nobody floods a mailbox.
 */
export const SIGN_IN_LIMITS = { perAddress: 10, perEmail: 3 };

async function count(deps: AppDeps, bucket: string, perMinute: number, what = 'sign-in requests'): Promise<void> {
  const hits = await deps.limiter.hit(bucket);
  if (hits > perMinute) {
    const now = deps.limiter.now();
    const retryAfterSeconds = Math.max(1, Math.ceil((windowAt(now).resetAt.getTime() - now) / 1000));
    throw new DomainError('rate_limited', `Too many ${what}; try again in ${retryAfterSeconds} s.`, { retryAfterSeconds });
  }
}

/** A project's edits and re-exports a minute, per account: each one queues a render, free of charge. */
export const PROJECT_POSTS_PER_MINUTE = 30;

export function limitProjectPosts(deps: AppDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === 'POST') await count(deps, `projects:account:${c.var.caller.accountId}`, PROJECT_POSTS_PER_MINUTE, 'edits and exports');
    await next();
  });
}

export function limitSignInsPerAddress(deps: AppDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === 'POST') await count(deps, `sign-in:ip:${clientAddress(c.req.header('x-forwarded-for'), socketAddress(c), deps.config.http.trustedProxies)}`, SIGN_IN_LIMITS.perAddress);
    await next();
  });
}

export function limitSignInsPerEmail(deps: AppDeps, email: string): Promise<void> {
  return count(deps, `sign-in:email:${email}`, SIGN_IN_LIMITS.perEmail);
}

/** The socket peer's address; app.request() in tests has no socket. */
function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
