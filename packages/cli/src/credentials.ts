import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Io } from './io.ts';

/** Keys by base URL: a login to a staging service does not replace the one to production. */
type Stored = { keys: Record<string, { apiKey: string; savedAt: string }> };

/** `<config dir>/vp/credentials.json`: XDG_CONFIG_HOME, %APPDATA% on Windows, else ~/.config. */
export function credentialsPath(env: Io['env']): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.APPDATA) || join(env.HOME || homedir(), '.config');
  return join(base, 'vp', 'credentials.json');
}

async function read(path: string): Promise<Stored> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<Stored>;
    return { keys: parsed.keys ?? {} };
  } catch {
    return { keys: {} };
  }
}

/** Writes the file readable by its owner only (0600), in a folder only they can list (0700). */
async function write(path: string, stored: Stored) {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  // A file that existed keeps its mode through writeFile: make sure.
  await chmod(path, 0o600);
}

export async function storedKey(env: Io['env'], baseUrl: string): Promise<string | null> {
  return (await read(credentialsPath(env))).keys[baseUrl]?.apiKey ?? null;
}

export async function storeKey(env: Io['env'], baseUrl: string, apiKey: string) {
  const path = credentialsPath(env);
  const stored = await read(path);
  stored.keys[baseUrl] = { apiKey, savedAt: new Date().toISOString() };
  await write(path, stored);
  return path;
}

export async function forgetKey(env: Io['env'], baseUrl: string) {
  const path = credentialsPath(env);
  const stored = await read(path);
  delete stored.keys[baseUrl];
  if (Object.keys(stored.keys).length) await write(path, stored);
  else await rm(path, { force: true });
}
