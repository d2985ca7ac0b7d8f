/**
 * Readies a checkout before the service or the tests run: the Prisma client is generated
 * from prisma/schema.prisma, the system tools the renderer needs are present, and so (for the
 * tests) is the Chromium the app's browser tests drive.
 */
import { generatePrismaClient } from './prisma-client.ts';
import { ensureChromium, ensureSystemTools } from './system-tools.ts';

await generatePrismaClient();
await ensureSystemTools();
ensureChromium();
