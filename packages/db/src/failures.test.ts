import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import { seedAccount, test, waitFor } from '@vp/testing';
import { createDb, isDatabaseFailure, sqlPool } from './index.ts';

const failureOf = (call: Promise<unknown>) => call.then(() => null, (error: unknown) => error);

describe('a failure of the database, which the same call may pass later', () => {
  test('is one that could not reach it, lost its connection, or found it shutting down', async ({ database }) => {
    const refusing = createDb('postgresql://postgres@127.0.0.1:9/none');
    expect(isDatabaseFailure(await failureOf(refusing.account.count()))).toBe(true);
    await refusing.$disconnect();
    // An address no route leads to (IPv6's documentation prefix): the adapter passes the network's
    // error (EHOSTUNREACH here) on under its own code.
    const unroutable = createDb('postgresql://postgres@[2001:db8::1]:5432/none', { connectTimeoutMs: 8000 });
    expect(isDatabaseFailure(await failureOf(unroutable.account.count()))).toBe(true);
    await unroutable.$disconnect();

    // A backend ended by the server (an admin's shutdown, a failover), mid-statement.
    const { db } = database;
    const sleeping = failureOf(db.$queryRawUnsafe('SELECT pg_sleep(5)'));
    const terminated = async () => (await sqlPool(db).query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(5)' AND state = 'active'`,
    )).rowCount! > 0;
    await waitFor(terminated, { what: 'the statement to be under way, then ended' });
    expect(isDatabaseFailure(await sleeping)).toBe(true);

    // A server that cannot take connections now (SQLSTATE 57P03), as a statement's answer.
    const raised = (code: string) => failureOf(db.$executeRawUnsafe(`DO $$ BEGIN RAISE EXCEPTION 'no' USING ERRCODE = '${code}'; END $$`));
    expect(isDatabaseFailure(await raised('57P03'))).toBe(true);
    expect(isDatabaseFailure(await failureOf(sqlPool(db).query(`DO $$ BEGIN RAISE EXCEPTION 'no' USING ERRCODE = '40001'; END $$`)))).toBe(true);
  });

  test('is not an answer that will come again: a constraint, bad data, a missing row, a refusal of ours', async ({ database }) => {
    const { db } = database;
    const { account } = await seedAccount(db);
    expect(isDatabaseFailure(await failureOf(db.account.create({ data: { email: account.email, name: 'Twice' } })))).toBe(false);
    expect(isDatabaseFailure(await failureOf(db.account.findUniqueOrThrow({ where: { id: randomUUID() } })))).toBe(false);
    expect(isDatabaseFailure(await failureOf(db.$executeRawUnsafe(`DO $$ BEGIN RAISE EXCEPTION 'refused'; END $$`)))).toBe(false);
    expect(isDatabaseFailure(await failureOf(sqlPool(db).query('SELECT 1/0')))).toBe(false);
    expect(isDatabaseFailure(new Error('a bug of ours'))).toBe(false);
  });

  test('is a transaction that could not start in time: every connection of the pool busy', async ({ database }) => {
    const db = createDb(database.url, { max: 1, connectTimeoutMs: 1000 });
    try {
      let release!: () => void;
      let held!: () => void;
      const holdingTheConnection = new Promise<void>((resolve) => (held = resolve));
      const holding = db.$transaction(async (tx) => {
        await tx.$queryRawUnsafe('SELECT 1');
        held();
        await new Promise<void>((resolve) => (release = resolve));
      }, { timeout: 20_000 });
      await holdingTheConnection;
      // One transaction that waits for a connection past Prisma's limit (P2028), one past the pool's own.
      const [interactive, batch] = await Promise.all([
        failureOf(db.$transaction((tx) => tx.account.count(), { maxWait: 500 })),
        failureOf(db.$transaction([db.account.count()])),
      ]);
      release();
      await holding;
      expect(interactive).toMatchObject({ code: 'P2028' });
      expect(isDatabaseFailure(interactive)).toBe(true);
      expect(batch).toMatchObject({ message: expect.stringMatching(/^timeout exceeded when trying to connect/) });
      expect(isDatabaseFailure(batch)).toBe(true);
    } finally {
      await db.$disconnect();
    }
  });

  test('is a call that got no connection in time from a database that stopped answering', async () => {
    // Takes the connection and never answers: a database host that hangs, or a network that drops everything.
    const silent = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const db = createDb(`postgresql://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/none`, { connectTimeoutMs: 300 });
    try {
      // The server never answers: the call ends only by the connection's time limit.
      const error = await failureOf(db.account.count());
      expect(isDatabaseFailure(error)).toBe(true);
    } finally {
      await db.$disconnect();
      silent.close();
    }
  });
});
