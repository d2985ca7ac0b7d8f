import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * `prisma generate` needs no schema engine, yet the CLI fetches one at start unless
 * PRISMA_SCHEMA_ENGINE_BINARY names a file. Naming any file (this script) lets generation
 * work where Prisma's binaries cannot be downloaded; every other Prisma command is untouched.
 */
export async function generatePrismaClient(): Promise<void> {
  execFileSync('pnpm', ['exec', 'prisma', 'generate'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? fileURLToPath(import.meta.url), PRISMA_HIDE_UPDATE_MESSAGE: '1' },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await generatePrismaClient();
