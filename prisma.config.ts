import 'dotenv/config';
import { defineConfig } from 'prisma/config';

// `prisma generate` needs no database; `prisma migrate deploy` reads DATABASE_URL.
const url = process.env.DATABASE_URL;

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  ...(url ? { datasource: { url } } : {}),
});
