import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createDb, isDatabaseFailure } from './index.ts';

describe('a database that stopped answering', () => {
  it('fails a call once its connection has not opened in time, as a database failure (tried again later by who waits it out)', async () => {
    // Takes the connection and never answers: a database host that hangs, or a network that drops everything.
    const silent = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const db = createDb(`postgresql://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/none`, { connectTimeoutMs: 300 });
    try {
      const started = Date.now();
      const error = await db.account.count().then(() => null, (failure: unknown) => failure);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(isDatabaseFailure(error)).toBe(true);
    } finally {
      await db.$disconnect();
      silent.close();
    }
  });
});
