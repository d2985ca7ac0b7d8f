/**
 * Readies a checkout before the service or the tests run: the Prisma client is generated
 * from prisma/schema.prisma, and the system tools the renderer needs are present.
 */
import { generatePrismaClient } from './prisma-client.ts';
import { ensureSystemTools } from './system-tools.ts';

await generatePrismaClient();
await ensureSystemTools();
