import { randomUUID } from 'node:crypto';
import {
  completeSignIn, createAccount, createApiKey, createWorkspace, inviteMember, requestSignIn, saveBrand, setMember,
} from '@vp/accounts';
import type { Db } from '@vp/db';
import { grant } from '@vp/ledger';
import { seedEndpoint, seedPitchedProduction } from './seed-pages.ts';

const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0 Safari/537.36';
const SAFARI_ON_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

/** A team's workspace with members, a brand, keys, credits and productions: what the screenshots show. */
export async function seedDemo(db: Db) {
  const { account: ada } = await createAccount(db, { email: 'ada@example.com', name: 'Ada Lovelace' });
  const team = await createWorkspace(db, { ownerId: ada.id, name: 'Acme Studio' });
  for (const [email, name, role] of [['grace@example.com', 'Grace Hopper', 'editor'], ['alan@example.com', 'Alan Turing', 'viewer']] as const) {
    const { account } = await createAccount(db, { email, name });
    await setMember(db, { workspaceId: team.id, accountId: account.id, role });
  }
  const caller = { accountId: ada.id, actor: `user:${ada.id}`, via: 'app' } as const;
  await inviteMember(db, caller, { workspaceId: team.id, email: 'linus@example.com', role: 'editor' });
  await saveBrand(db, caller, { workspaceId: team.id, brand: { name: 'Acme', logoUrl: 'https://acme.example/logo.svg', primaryColor: '#ff5a36', backgroundColor: '#101014', fontFamily: 'Inter', tone: 'Warm, precise, a little playful' } });
  await grant(db, ada.id, 1000, 'Welcome credits');
  await createApiKey(db, { accountId: ada.id, name: 'Release pipeline', scopes: ['productions'], madeBy: 'app' });
  const old = await createApiKey(db, { accountId: ada.id, name: 'Old laptop', scopes: ['productions', 'renders'], madeBy: 'device' });
  await db.apiKey.update({ where: { id: old.id }, data: { revokedAt: new Date(), lastUsedAt: new Date(Date.now() - 86_400_000) } });
  await createApiKey(db, { accountId: ada.id, name: 'bootstrap', scopes: ['productions', 'renders', 'capture', 'import'] });
  await seedProductions(db, { workspaceId: team.id, ownerId: ada.id });
  await db.passkey.create({ data: { accountId: ada.id, credentialId: 'demo-credential', publicKey: Buffer.from('demo'), name: 'MacBook Touch ID', lastUsedAt: new Date() } });

  const signIn = async (userAgent: string) => {
    const link = await requestSignIn(db, { email: 'ada@example.com', signup: 'open' });
    return completeSignIn(db, { token: link.token, signup: 'open', userAgent });
  };
  await signIn(SAFARI_ON_IPHONE);
  const session = await signIn(CHROME_ON_LINUX);
  await db.session.update({ where: { id: session.session.id }, data: { workspaceId: team.id } });
  const productionId = await seedPitchedProduction(db, { workspaceId: team.id, ownerId: ada.id, ownerName: 'Ada Lovelace' });
  const endpointId = await seedEndpoint(db, team.id);
  return { token: session.token, productionId, endpointId };
}

async function seedProductions(db: Db, input: { workspaceId: string; ownerId: string }) {
  const rows = [
    { intent: 'Show off the faster exports in 2.4', stage: 'delivered', credits: 30 },
    { intent: 'Announce the new team workspaces', stage: 'pitch_ready', credits: 0 },
    { intent: 'A 15-second teaser for the dark mode', stage: 'making', credits: 15 },
    { intent: 'Changelog digest for October', stage: 'failed', credits: 0 },
  ] as const;
  for (const [i, row] of rows.entries()) {
    const id = randomUUID();
    await db.production.create({
      data: {
        id, workspaceId: input.workspaceId, createdBy: input.ownerId, stage: row.stage, sourceKind: 'api', greenlightMode: 'manual',
        brief: { intent: row.intent }, creditsCharged: row.credits, createdAt: new Date(Date.now() - (i + 1) * 3_600_000),
      },
    });
    if (row.credits) await db.creditEntry.create({ data: { accountId: input.ownerId, kind: 'charge', amount: -row.credits, productionId: id } });
  }
}
