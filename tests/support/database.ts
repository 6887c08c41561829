import { seedCatalog } from '@/server/catalog/seed';
import { createDb, type Db } from '@/server/db/client';
import { migrate } from '@/server/db/migrate';
import { adminQuery, withDatabase } from './global-setup';

/**
 * A database of the test file's own on the run's PostgreSQL, migrated and seeded with the curated
 * catalog: for tests that count or list the whole catalog, which other files' writes would disturb.
 */
export async function ownDatabase(label: string): Promise<{ db: Db; url: string; drop: () => Promise<void> }> {
  const server = process.env.DATABASE_URL!;
  const name = `artprints_${label}_${process.pid}_${Date.now()}`;
  await adminQuery(server, `CREATE DATABASE ${name}`);
  const url = withDatabase(server, name);
  await migrate(url);
  const db = createDb(url);
  await seedCatalog(db);
  return {
    db,
    url,
    drop: async () => {
      await db.$disconnect();
      await adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
