/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { answeredAlready, answerKeyRequest, findKeyRequestByCode } from '@vp/accounts';
import { DomainError } from '@vp/contracts';
import { windowAt } from '@vp/db';
import type { Domain } from '@vp/domain';
import type { AppDeps, AppEnv } from '../env.ts';
import { KeyApprovalPage, type ApprovalState } from '../views/key-approval.tsx';
import { chromeOf } from './chrome.ts';
import { field } from './forms.ts';

/** DECISIONS-worthy: wrong codes a session may try in a minute, so that the code space cannot be walked. */
export const WRONG_CODES_PER_MINUTE = 10;

/**
 * /keys/approve?code=: a tool's key request (spec: Authentication 6), approved or refused by the
 * signed-in person. A code no request has counts against the session's limit of wrong codes;
 * past it, no code is looked up until the minute ends.
 */
export function keyApprovalRoutes(deps: AppDeps, domain: Domain) {
  const app = new Hono<AppEnv>();
  const show = async (c: Context<AppEnv>, state: ApprovalState, status: 200 | 404 | 409 | 410 = 200) =>
    c.html(<KeyApprovalPage chrome={await chromeOf(deps, c)} state={state} />, status);
  const bucket = (c: Context<AppEnv>) => `key-approval:session:${c.var.session!.id}`;

  async function refuseWhileWalking(c: Context<AppEnv>): Promise<void> {
    if ((await deps.limiter.count(bucket(c))) < WRONG_CODES_PER_MINUTE) return;
    const now = deps.limiter.now();
    const retryAfterSeconds = Math.max(1, Math.ceil((windowAt(now).resetAt.getTime() - now) / 1000));
    throw new DomainError('rate_limited', `Too many wrong codes; try again in ${retryAfterSeconds} s.`, { retryAfterSeconds });
  }
  async function wrongCode(c: Context<AppEnv>, code: string) {
    await deps.limiter.hit(bucket(c));
    return show(c, { kind: 'ask', code, problem: 'No key request has this code. Check it against the one your tool shows, and type it again.' }, 404);
  }

  app.get('/', async (c) => {
    const code = c.req.query('code')?.trim() ?? '';
    if (!code) return show(c, { kind: 'ask' });
    await refuseWhileWalking(c);
    const request = await findKeyRequestByCode(deps.db, code);
    if (!request) return wrongCode(c, code);
    if (request.status !== 'pending') return show(c, { kind: 'ask', problem: answeredAlready(request.status) }, request.status === 'expired' ? 410 : 409);
    return show(c, { kind: 'confirm', request });
  });

  app.post('/', async (c) => {
    const code = await field(c, 'code');
    const answer = await field(c, 'answer');
    if (answer !== 'approve' && answer !== 'deny') throw new DomainError('invalid', 'Choose Approve or Deny.');
    await refuseWhileWalking(c);
    try {
      const status = await answerKeyRequest(domain.keyRequests, c.var.caller, { code, answer });
      const request = await findKeyRequestByCode(deps.db, code);
      return show(c, { kind: 'answered', answer: status === 'approved' ? 'approved' : 'denied', name: request?.name ?? '' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.code === 'not_found') return wrongCode(c, code);
      if (error.code === 'expired' || error.code === 'stale') return show(c, { kind: 'ask', problem: error.message }, error.code === 'expired' ? 410 : 409);
      throw error;
    }
  });
  return app;
}
