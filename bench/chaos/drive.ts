import type { Db } from '@vp/db';
import { isTerminal, type Stage } from '@vp/contracts';

/**
 * One client of the API, as a customer's integration would be: creates a production, waits for
 * its pitch, greenlights it, and waits for it to end. A request the service could not finish (a
 * 5xx, or no answer: the worker was killed under it) is tried again after reading the production,
 * as the spec's 503 `unavailable` says to; a create is safe to repeat through its `externalId`.
 */
export function productionDriver(options: { baseUrl: string; db: Db; keys: string[]; intent: string; durationMs: number; timeoutMs: number }) {
  const { baseUrl, db, keys, timeoutMs } = options;
  let used = 0;
  const request = async (path: string, body: unknown): Promise<{ status: number; json: unknown }> => {
    try {
      const res = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys[used++ % keys.length]}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      return { status: res.status, json: await res.json().catch(() => null) };
    } catch {
      return { status: 0, json: null };
    }
  };
  const read = (id: string) => db.production.findUniqueOrThrow({ where: { id }, select: { stage: true, pitchVersion: true } });
  const until = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  /** Creates production `n`, greenlights its first pitch, and resolves with its final stage. */
  return async function drive(n: number): Promise<{ id: string; stage: Stage; greenlightTries: number }> {
    const body = { brief: { intent: options.intent, format: { durationMs: options.durationMs, sound: { voiceover: false, music: false, sfx: false } } }, externalId: `chaos-${n}` };
    const id = await until('the create', async () => {
      const res = await request('/v1/productions', body);
      if (res.status === 201 || res.status === 200) return (res.json as { production: { id: string } }).production.id;
      if (res.status !== 0 && res.status < 500) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.json)}`);
      return undefined;
    });
    let greenlightTries = 0;
    await until(`production ${id} to be greenlit`, async () => {
      const row = await read(id);
      if (row.stage !== 'pitch_ready') return isTerminal(row.stage) || ['greenlit', 'making', 'exporting'].includes(row.stage) ? true : undefined;
      greenlightTries++;
      const res = await request(`/v1/productions/${id}/greenlight`, { pitchVersion: row.pitchVersion });
      // 409 `stage`: it moved meanwhile (the try before was taken after all); read again.
      if (res.status === 200 || res.status === 409 || res.status === 0 || res.status >= 500) return undefined;
      throw new Error(`greenlight answered ${res.status}: ${JSON.stringify(res.json)}`);
    });
    const stage = await until(`production ${id} to end`, async () => {
      const { stage } = await read(id);
      return isTerminal(stage) ? stage : undefined;
    });
    return { id, stage, greenlightTries };
  };
}
