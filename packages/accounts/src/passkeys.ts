import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type AuthenticatorTransport, type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { DomainError, type Caller } from '@vp/contracts';
import type { Db } from '@vp/db';
import { startSession } from './sessions.ts';
import { idOrNotFound } from './validate.ts';

/** Who the passkeys are for: the app's host name and origin, from APP_URL. */
export type RelyingParty = { id: string; origin: string; name: string };

export function relyingPartyFor(appUrl: string): RelyingParty {
  const url = new URL(appUrl);
  return { id: url.hostname, origin: url.origin, name: 'Video Production Service' };
}

/** How long a browser has to answer a passkey prompt. */
const CHALLENGE_MS = 5 * 60 * 1000;
const PASSKEY_NAME_MAX = 100;

const refused = (message = 'The passkey could not be verified. Try again.') => new DomainError('invalid', message);

async function newChallenge(db: Db, challenge: string, now: Date, sessionId: string | null): Promise<string> {
  const row = await db.passkeyChallenge.create({ data: { challenge, sessionId, expiresAt: new Date(now.getTime() + CHALLENGE_MS) } });
  return row.id;
}

/** A challenge, used once: removed as it is read; null when unknown, expired or not this session's. */
async function takeChallenge(db: Db, challengeId: string, sessionId: string | null, now: Date): Promise<string | null> {
  const rows = await db.$queryRaw<{ challenge: string }[]>`
    DELETE FROM passkey_challenges
    WHERE id = ${idOrNotFound(challengeId, 'challenge')}::uuid AND session_id IS NOT DISTINCT FROM ${sessionId}::uuid AND expires_at > ${now}
    RETURNING challenge`;
  return rows[0]?.challenge ?? null;
}

/** Options for the browser to make a passkey for the caller (from the account page). */
export async function passkeyRegistrationOptions(db: Db, caller: Caller, input: { sessionId: string; rp: RelyingParty; now?: Date }) {
  const account = await db.account.findUniqueOrThrow({ where: { id: caller.accountId }, include: { passkeys: { select: { credentialId: true, transports: true } } } });
  const options = await generateRegistrationOptions({
    rpName: input.rp.name, rpID: input.rp.id, userName: account.email, userDisplayName: account.name ?? account.email,
    userID: new TextEncoder().encode(account.id),
    attestationType: 'none',
    excludeCredentials: account.passkeys.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const challengeId = await newChallenge(db, options.challenge, input.now ?? new Date(), input.sessionId);
  return { challengeId, options };
}

/** Verifies the browser's new passkey against the session's challenge, and keeps it under a name. */
export async function registerPasskey(db: Db, caller: Caller, input: { sessionId: string; challengeId: string; response: unknown; name: string; rp: RelyingParty; now?: Date }) {
  const name = input.name.trim() || 'Passkey';
  if (name.length > PASSKEY_NAME_MAX) throw DomainError.invalid('name', `A passkey's name is at most ${PASSKEY_NAME_MAX} characters.`);
  const challenge = await takeChallenge(db, input.challengeId, input.sessionId, input.now ?? new Date());
  if (!challenge) throw refused('The passkey prompt has expired. Try again.');
  const verified = await verifyRegistrationResponse({
    response: input.response as RegistrationResponseJSON, expectedChallenge: challenge, expectedOrigin: input.rp.origin, expectedRPID: input.rp.id,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verified?.verified) throw refused();
  const { credential } = verified.registrationInfo;
  return db.passkey.create({
    data: {
      accountId: caller.accountId, credentialId: credential.id, publicKey: Buffer.from(credential.publicKey),
      counter: BigInt(credential.counter), transports: credential.transports ?? [], name,
    },
    select: { id: true, name: true, createdAt: true },
  });
}

/** Options for a passkey sign-in: any passkey of this site (the browser offers those it has). */
export async function passkeySignInOptions(db: Db, input: { rp: RelyingParty; now?: Date }) {
  const options = await generateAuthenticationOptions({ rpID: input.rp.id, userVerification: 'preferred' });
  const challengeId = await newChallenge(db, options.challenge, input.now ?? new Date(), null);
  return { challengeId, options };
}

/** Signs in with a passkey: the challenge used once, the signature checked, its counter moved on. */
export async function signInWithPasskey(db: Db, input: { challengeId: string; response: unknown; rp: RelyingParty; userAgent?: string | null; now?: Date }) {
  const now = input.now ?? new Date();
  const response = input.response as AuthenticationResponseJSON;
  const challenge = await takeChallenge(db, input.challengeId, null, now);
  if (!challenge) throw refused('The passkey prompt has expired. Try again.');
  const passkey = typeof response?.id === 'string' ? await db.passkey.findUnique({ where: { credentialId: response.id } }) : null;
  if (!passkey) throw refused('This passkey is not known here: it may have been removed.');
  const verified = await verifyAuthenticationResponse({
    response, expectedChallenge: challenge, expectedOrigin: input.rp.origin, expectedRPID: input.rp.id, requireUserVerification: false,
    credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: Number(passkey.counter), transports: passkey.transports as AuthenticatorTransport[] },
  }).catch(() => null);
  if (!verified?.verified) throw refused();
  return db.$transaction(async (tx) => {
    await tx.passkey.update({ where: { id: passkey.id }, data: { counter: BigInt(verified.authenticationInfo.newCounter), lastUsedAt: now } });
    const started = await startSession(tx, { accountId: passkey.accountId, userAgent: input.userAgent, now });
    return { ...started, accountId: passkey.accountId };
  });
}

/** The caller's passkeys, newest first. */
export function listPasskeys(db: Db, caller: Caller) {
  return db.passkey.findMany({
    where: { accountId: caller.accountId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, name: true, createdAt: true, lastUsedAt: true },
  });
}

/** Removes one of the caller's passkeys: it signs in no more. */
export async function removePasskey(db: Db, caller: Caller, passkeyId: string): Promise<void> {
  const { count } = await db.passkey.deleteMany({ where: { id: idOrNotFound(passkeyId, 'passkey'), accountId: caller.accountId } });
  if (!count) throw new DomainError('not_found', 'No such passkey.');
}

/** Removes challenges nobody answered; run now and then. */
export async function sweepPasskeyChallenges(db: Db, now = new Date()): Promise<number> {
  return (await db.passkeyChallenge.deleteMany({ where: { expiresAt: { lt: now } } })).count;
}
