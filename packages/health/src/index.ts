import { rename, writeFile } from 'node:fs/promises';

/** How often a worker proves it is healthy (docker-compose.yml's checks allow a minute between proofs). */
export const HEARTBEAT_EVERY_MS = 10_000;

/**
 * Writes the time to `file` when every probe answers within `timeoutMs` (a real call to what the
 * process cannot work without: Temporal, PostgreSQL); otherwise throws, naming the probes that did
 * not, and leaves the file to age. A worker does this every HEARTBEAT_EVERY_MS, and its container's
 * health check (docker-compose.yml) reads the file's age: a process that hangs, or has lost what
 * it works with, stops writing it.
 */
export async function touchWhenHealthy(file: string, probes: Record<string, () => Promise<unknown>>, timeoutMs = HEARTBEAT_EVERY_MS): Promise<void> {
  const results = await Promise.all(Object.entries(probes).map(async ([name, probe]) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([probe(), late]);
      return null;
    } catch (error) {
      return `${name}: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      clearTimeout(timer);
    }
  }));
  const failed = results.filter((result) => result !== null);
  if (failed.length) throw new Error(`Not healthy, so the heartbeat is not written: ${failed.join('; ')}`);
  // Written beside it and renamed into place: a health check never reads half a file.
  await writeFile(`${file}.tmp`, `${new Date().toISOString()}\n`);
  await rename(`${file}.tmp`, file);
}
