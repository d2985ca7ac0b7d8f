import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Db } from '@vp/db';
import { seedAccount, test } from '@vp/testing';
import { balance, chargeProduction, refundProduction, grant, type ChargeResult } from './index.ts';

/**
 * The ledger against a model of it, on real PostgreSQL: random sequences of grants, charges,
 * refunds and their retries (a retried activity runs again, or races the first run), over a few
 * accounts and the productions they own. After every step the balances are the model's, never
 * below 0, and each production has at most one charge and one refund, the refund never more than
 * the charge.
 */

const ACCOUNTS = 3;
const PRODUCTIONS = 6;
const ownerOf = (production: number) => production % ACCOUNTS;

type Model = {
  balances: number[];
  /** A production's price: the amount of its first charge; its greenlight charges that every time. */
  prices: Map<number, number>;
  charged: Set<number>;
  refunded: Set<number>;
};
type Real = { db: Db; accounts: string[]; productions: string[] };

/** What charging `production` answers, by the model, and the model after it. */
function expectedCharge(model: Model, production: number): ChargeResult {
  const price = model.prices.get(production)!;
  const owner = ownerOf(production);
  if (model.charged.has(production)) return { ok: true, charged: price, alreadyCharged: true };
  if (model.balances[owner]! < price) return { ok: false, balance: model.balances[owner]! };
  model.balances[owner]! -= price;
  model.charged.add(production);
  return { ok: true, charged: price, alreadyCharged: false };
}

const cloneModel = (model: Model): Model => ({
  balances: [...model.balances], prices: new Map(model.prices), charged: new Set(model.charged), refunded: new Set(model.refunded),
});

async function holds(model: Model, real: Real): Promise<void> {
  for (const [index, accountId] of real.accounts.entries()) {
    const real$ = await balance(real.db, accountId);
    expect(real$, `balance of account ${index}`).toBe(model.balances[index]);
    expect(real$).toBeGreaterThanOrEqual(0);
  }
  const entries = await real.db.creditEntry.findMany({ where: { accountId: { in: real.accounts }, productionId: { not: null } } });
  for (const [index, productionId] of real.productions.entries()) {
    const charges = entries.filter((e) => e.productionId === productionId && e.kind === 'charge');
    const refunds = entries.filter((e) => e.productionId === productionId && e.kind === 'refund');
    expect(charges.length, `charges of production ${index}`).toBe(model.charged.has(index) ? 1 : 0);
    expect(refunds.length, `refunds of production ${index}`).toBe(model.refunded.has(index) ? 1 : 0);
    // A refund gives back exactly what was charged, to the account charged.
    for (const refund of refunds) expect({ amount: refund.amount, accountId: refund.accountId }).toEqual({ amount: -charges[0]!.amount, accountId: charges[0]!.accountId });
  }
}

const charge = (real: Real, model: Model, production: number) =>
  chargeProduction(real.db, { accountId: real.accounts[ownerOf(production)]!, productionId: real.productions[production]!, amount: model.prices.get(production)! });

class Grant implements fc.AsyncCommand<Model, Real> {
  constructor(readonly account: number, readonly amount: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    await grant(real.db, real.accounts[this.account]!, this.amount);
    model.balances[this.account]! += this.amount;
    await holds(model, real);
  }
  toString = () => `grant(account ${this.account}, ${this.amount})`;
}

/** A production's charge: its first, or a retry (once more, or `runs` at once, as a retry racing the first). */
class Charge implements fc.AsyncCommand<Model, Real> {
  constructor(readonly production: number, readonly price: number, readonly runs: 1 | 2) {}
  check = () => true;
  async run(model: Model, real: Real) {
    if (!model.prices.has(this.production)) model.prices.set(this.production, this.price);
    const results = await Promise.all(Array.from({ length: this.runs }, () => charge(real, model, this.production)));
    const expected = Array.from({ length: this.runs }, () => expectedCharge(model, this.production));
    expect(sortResults(results)).toEqual(sortResults(expected));
    await holds(model, real);
  }
  toString = () => `charge(production ${this.production}, ${this.price}${this.runs > 1 ? ', twice at once' : ''})`;
}

/** Two productions charged at once: the outcome is that of one order or the other, never both spending the same credits. */
class ChargeTwo implements fc.AsyncCommand<Model, Real> {
  constructor(readonly first: number, readonly second: number, readonly prices: [number, number]) {}
  check = () => this.first !== this.second;
  async run(model: Model, real: Real) {
    [this.first, this.second].forEach((production, i) => model.prices.has(production) || model.prices.set(production, this.prices[i]!));
    const results = await Promise.all([charge(real, model, this.first), charge(real, model, this.second)]);
    const inOrder = cloneModel(model);
    const reversed = cloneModel(model);
    const orders = [
      { model: inOrder, results: [expectedCharge(inOrder, this.first), expectedCharge(inOrder, this.second)] },
      { model: reversed, results: [expectedCharge(reversed, this.second), expectedCharge(reversed, this.first)].reverse() },
    ];
    const order = orders.find((o) => JSON.stringify(o.results) === JSON.stringify(results));
    expect(order, `${JSON.stringify(results)} is the outcome of neither order: ${JSON.stringify(orders.map((o) => o.results))}`).toBeDefined();
    Object.assign(model, order!.model);
    await holds(model, real);
  }
  toString = () => `charge(productions ${this.first} and ${this.second} at once, ${this.prices.join(' and ')})`;
}

/** A production's refund, or its retry (once more, or twice at once). */
class Refund implements fc.AsyncCommand<Model, Real> {
  constructor(readonly production: number, readonly runs: 1 | 2) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const results = await Promise.all(Array.from({ length: this.runs }, () => refundProduction(real.db, real.productions[this.production]!)));
    const price = model.charged.has(this.production) ? model.prices.get(this.production)! : 0;
    expect(results).toEqual(results.map(() => price));
    if (price && !model.refunded.has(this.production)) {
      model.refunded.add(this.production);
      model.balances[ownerOf(this.production)]! += price;
    }
    await holds(model, real);
  }
  toString = () => `refund(production ${this.production}${this.runs > 1 ? ', twice at once' : ''})`;
}

const sortResults = (results: ChargeResult[]) => results.map((r) => JSON.stringify(r)).sort();

const production = fc.integer({ min: 0, max: PRODUCTIONS - 1 });
const price = fc.integer({ min: 1, max: 40 });
const runs = fc.constantFrom<1 | 2>(1, 2);
/** Two productions, mostly of one owner: then one balance must cover both, or only one is charged. */
const pair = fc.oneof(
  { arbitrary: production.map((p) => [p, (p + ACCOUNTS) % PRODUCTIONS] as const), weight: 3 },
  { arbitrary: fc.tuple(production, production), weight: 1 },
);
const commands = fc.commands([
  fc.tuple(fc.integer({ min: 0, max: ACCOUNTS - 1 }), fc.integer({ min: 1, max: 60 })).map(([account, amount]) => new Grant(account, amount)),
  fc.tuple(production, price, runs).map(([p, amount, n]) => new Charge(p, amount, n)),
  fc.tuple(pair, price, price).map(([[a, b], x, y]) => new ChargeTwo(a, b, [x, y])),
  fc.tuple(production, runs).map(([p, n]) => new Refund(p, n)),
], { maxCommands: 40, size: '+1' });
/** What each account holds before the first command. */
const startingCredits = fc.array(fc.integer({ min: 0, max: 80 }), { minLength: ACCOUNTS, maxLength: ACCOUNTS });

describe('the credits ledger, against its model', () => {
  test('charges each production at most once and refunds it at most once, never below 0, whatever the order and the retries', { timeout: 240_000 }, async ({ database }) => {
    await fc.assert(fc.asyncProperty(startingCredits, commands, async (credits, cmds) => {
      const accounts = await Promise.all(credits.map(async (amount) => (await seedAccount(database.db, { credits: amount })).account.id));
      const real: Real = { db: database.db, accounts, productions: Array.from({ length: PRODUCTIONS }, () => crypto.randomUUID()) };
      const model: Model = { balances: [...credits], prices: new Map(), charged: new Set(), refunded: new Set() };
      await fc.asyncModelRun(() => ({ model, real }), cmds);
    }), { numRuns: 40 });
  });
});
