import { randomBytes } from 'node:crypto';
import { appendFile, chmod, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { devStackEnv, SECRET_NAMES } from '@vp/config';

/** The secrets every process needs, and the Temporal Web UI's codec token (an operator's credential). */
export const DEV_STACK_SECRETS = [...SECRET_NAMES, 'TEMPORAL_CODEC_TOKEN'];

/**
 * The dev stack's own signing and encryption secrets, made on its first run and kept in its data
 * folder (`secrets.env`, readable by its owner only): nobody else's copy of the source can forge
 * its links or read its history. A secret added since the file was made is added to it; the ones
 * in it never change (links already sent, endpoint secrets sealed and histories encrypted with
 * them stay readable). Each is 32 random bytes, base64. Answers the names it made.
 */
export async function ensureDevSecrets(dataDir: string): Promise<string[]> {
  const path = `${dataDir}/secrets.env`;
  const kept = devStackEnv(dataDir, {});
  const missing = DEV_STACK_SECRETS.filter((name) => !kept[name]);
  if (!missing.length) return [];
  const lines = missing.map((name) => `${name}=${randomBytes(32).toString('base64')}\n`).join('');
  await mkdir(dataDir, { recursive: true });
  if (existsSync(path)) await appendFile(path, lines);
  else await writeFile(path, `# Made by \`pnpm dev\` on its first run: keep it private. Deleted, new secrets are made.\n${lines}`, { mode: 0o600 });
  await chmod(path, 0o600);
  return missing;
}
