import { defineConfig } from 'prisma/config';

// Only `prisma generate` and, on a machine with Prisma's schema engine, `prisma migrate status`
// read this file. The app connects through @prisma/adapter-pg (src/server/db/client.ts) and applies
// migrations with its own step (src/server/db/migrate.ts).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/unused' },
});
