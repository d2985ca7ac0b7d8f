import { describe, expect } from 'vitest';
import { createRateLimiter } from '@vp/db';
import { seedAccount, test } from '@vp/testing';
import { createClient } from '@vp/sdk';
import { servedGateway } from './served.ts';

// Each request in a window of its own: 250 creates are more than a minute's allowance.
let minute = 0;
const it = test.extend('served', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const served = await servedGateway(database, { limiter: createRateLimiter(database.db, () => Date.UTC(2030, 0, 1) + minute++ * 60_000) });
  onCleanup(served.close);
  return served;
});

describe('list iterators', () => {
  it('follow nextCursor through 250 productions, newest first, each once', async ({ served, database }) => {
    const { apiKey, workspace } = await seedAccount(database.db, { credits: 10_000 });
    // An operator's setting: this workspace may have more pitches a month than the default 100.
    await database.db.workspace.update({ where: { id: workspace.id }, data: { pitchCap: 1000 } });
    const vp = createClient({ baseUrl: served.baseUrl, apiKey });
    const made: string[] = [];
    for (let i = 0; i < 250; i++) made.push((await vp.productions.create({ brief: { intent: `Release note ${i}`, format: { durationMs: 5000 } } })).production.id);

    const listed: string[] = [];
    for await (const production of vp.productions.iterate({ limit: 100 })) listed.push(production.id);
    expect(listed).toHaveLength(250);
    expect(new Set(listed).size).toBe(250);
    expect(listed).toEqual([...made].reverse());

    // Pages of the default size (20), and a break stops the reading where the caller stopped.
    const firstPage = await vp.productions.list();
    expect(firstPage.productions).toHaveLength(20);
    expect(firstPage.nextCursor).toBeTruthy();
    const firstThirty: string[] = [];
    for await (const production of vp.productions.iterate()) if (firstThirty.push(production.id) === 30) break;
    expect(firstThirty).toEqual(listed.slice(0, 30));
  });
});
