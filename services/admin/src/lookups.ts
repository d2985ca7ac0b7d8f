import { findAccountByEmail } from '@vp/accounts';
import type { Db } from '@vp/db';
import { failure } from './cli-error.ts';

export async function accountByEmail(db: Db, email: string) {
  const account = await findAccountByEmail(db, email);
  if (!account) throw failure(`no account with e-mail ${email} (create one with \`admin account create --email ${email}\`)`);
  return account;
}

export async function workspaceById(db: Db, workspaceId: string) {
  const workspace = await db.workspace.findUnique({ where: { id: workspaceId } });
  if (!workspace) throw failure(`no workspace with id ${workspaceId}`);
  return workspace;
}

/** Prisma's unique-constraint violation: another row (perhaps written just now) has the same key. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'P2002';
}
