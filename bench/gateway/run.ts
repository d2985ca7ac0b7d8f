/**
 * bench/gateway: GET /v1/productions/{id} through the whole gateway (auth, rate limit,
 * validation, read model) under 50 concurrent connections, beside a bare Hono + pg handler
 * doing the same indexed SELECT, both driven by autocannon in the same run.
 * Goal: the gateway serves at least half the bare handler's rate.
 *
 *   pnpm tsx bench/gateway/run.ts [--seconds 15] [--connections 50]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createAccount, createApiKey } from '@vp/accounts';
import { Brief } from '@vp/contracts';
import { createDb } from '@vp/db';
import { freePort } from '@vp/devstack';
import { grant } from '@vp/ledger';
import { insertProduction } from '@vp/productions';
import { startBenchStack } from '../lib/stack.ts';
import { goal, ms } from '../lib/stats.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '15' }, connections: { type: 'string', default: '50' } } });
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const root = fileURLToPath(new URL('../../', import.meta.url));

const stack = await startBenchStack();
const db = createDb(stack.databaseUrl, { max: 4 });
const children: ChildProcess[] = [];

/** Starts a server process and waits until it answers. */
async function start(args: string[], env: Record<string, string>, port: number): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (await fetch(`${url}/healthz`).then(() => true, () => false)) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${args[0]} did not start`);
}

function load(url: string, path: string, headers: () => Record<string, string>) {
  return autocannon({
    url, connections: CONNECTIONS, duration: SECONDS,
    requests: [{ method: 'GET', path, setupRequest: (req) => ({ ...req, headers: headers() }) }],
  });
}

try {
  // One production to read; enough keys that the 120-a-minute limit per key never refuses.
  const { account, workspace } = await createAccount(db, { email: 'bench@example.test', name: 'Bench' });
  await grant(db, account.id, 1000);
  const { production } = await insertProduction(db, {
    workspace: await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } }), createdBy: account.id,
    actor: { actor: 'key:bench', actorName: 'Bench' }, sourceKind: 'api', brief: Brief.parse({ intent: 'Benchmark me' }), greenlightMode: 'manual',
  });
  const keyCount = Math.ceil((SECONDS * 8000) / 100);
  const keys: string[] = [];
  for (let i = 0; i < keyCount; i += 100) {
    keys.push(...(await Promise.all(Array.from({ length: 100 }, () => createApiKey(db, { accountId: account.id, name: 'bench', scopes: ['productions'] })))).map((k) => k.apiKey));
  }
  let next = 0;
  const auth = () => ({ authorization: `Bearer ${keys[next++ % keys.length]}` });
  const path = `/v1/productions/${production.id}`;

  const gatewayPort = await freePort();
  const gateway = await start(['services/gateway/src/main.ts'], {
    DATABASE_URL: stack.databaseUrl, TEMPORAL_ADDRESS: stack.temporalAddress, PORT: String(gatewayPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn',
    // A throw-away stack: the built-in development secrets serve.
    ALLOW_DEV_SECRETS: 'true',
  }, gatewayPort);
  const barePort = await freePort();
  const bare = await start(['bench/gateway/bare-server.ts', stack.databaseUrl, String(barePort)], {}, barePort);

  const check = await fetch(`${gateway}${path}`, { headers: auth() });
  if (check.status !== 200) throw new Error(`the gateway answered ${check.status}: ${await check.text()}`);

  // Warm both up, then measure each alone.
  await load(gateway, path, auth);
  await load(bare, path, auth);
  const full = await load(gateway, path, auth);
  const base = await load(bare, path, auth);
  const refused = full.non2xx;
  const ratio = full.requests.average / base.requests.average;

  console.log([
    `bench/gateway — GET /v1/productions/{id}, ${CONNECTIONS} connections, ${SECONDS} s each (autocannon)`,
    '',
    '                  requests/s   p50         p99         non-2xx',
    `  gateway         ${full.requests.average.toFixed(0).padEnd(12)} ${ms(full.latency.p50).padEnd(11)} ${ms(full.latency.p99).padEnd(11)} ${refused}`,
    `  bare Hono + pg  ${base.requests.average.toFixed(0).padEnd(12)} ${ms(base.latency.p50).padEnd(11)} ${ms(base.latency.p99).padEnd(11)} ${base.non2xx}`,
    '',
    `  rate ratio (gateway / bare): ${ratio.toFixed(2)}`,
    '',
    goal(`the gateway serves at least half the bare handler's rate (${ratio.toFixed(2)})`, ratio >= 0.5),
    goal('every gateway answer was a 200 (no rate-limit refusals)', refused === 0),
  ].join('\n'));
} finally {
  for (const child of children) child.kill('SIGTERM');
  await db.$disconnect();
  await stack.stop();
}
