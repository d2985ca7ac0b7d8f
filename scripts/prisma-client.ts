import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The generator's `output` in prisma/schema.prisma. */
const GENERATED = `${root}packages/db/src/generated`;
/** Written after a generation: the digest of what the client was generated from. */
const STAMP = `${GENERATED}/.generated-from`;
const INPUTS = ['prisma/schema.prisma', 'prisma.config.ts', 'node_modules/prisma/package.json'];

/**
 * Generates the Prisma client, unless it was generated from this schema, config and Prisma
 * version already: a generation replaces the whole folder, under anything importing it.
 *
 * `prisma generate` needs no schema engine, yet the CLI fetches one at start unless
 * PRISMA_SCHEMA_ENGINE_BINARY names a file. Naming any file (this script) lets generation
 * work where Prisma's binaries cannot be downloaded; every other Prisma command is untouched.
 */
export async function generatePrismaClient(): Promise<void> {
  const digest = inputsDigest();
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === digest) return;
  execFileSync('pnpm', ['exec', 'prisma', 'generate'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? fileURLToPath(import.meta.url), PRISMA_HIDE_UPDATE_MESSAGE: '1' },
  });
  writeFileSync(STAMP, digest);
}

function inputsDigest(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS) hash.update(file).update(readFileSync(`${root}${file}`));
  return hash.digest('hex');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await generatePrismaClient();
