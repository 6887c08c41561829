import 'server-only';
import path from 'node:path';
import type { Env } from '@/server/env';
import { logger } from '@/server/logger';
import { seedCatalog } from '@/server/catalog/seed';
import { createDb } from './client';
import { startEmbeddedPostgres, type RunningDatabase } from './embedded';
import { localSecrets } from './local-secrets';
import { migrate } from './migrate';

/** The configured PostgreSQL, or the embedded one in the data folder when none is configured. */
export async function openDatabase(config: Env): Promise<RunningDatabase> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: async () => undefined };
  const dataDir = path.resolve(config.DATA_DIR);
  const running = await startEmbeddedPostgres({
    dir: path.join(dataDir, 'postgres'),
    password: localSecrets(dataDir).postgresPassword,
    log: (line) => logger.info(line),
  });
  logger.info('database: embedded PostgreSQL in %s (set DATABASE_URL to use your own server)', path.join(dataDir, 'postgres'));
  return running;
}

/** Brings a database up to date: pending migrations, then the curated catalog (both idempotent). */
export async function prepareDatabase(url: string): Promise<void> {
  const applied = await migrate(url);
  logger.info(applied.length ? 'migrations applied: %s' : 'migrations: up to date', applied.join(', '));
  const db = createDb(url);
  try {
    const seeded = await seedCatalog(db);
    const state = seeded.written ? '' : ' (up to date: nothing written)';
    logger.info('catalog seed: %d curated works by %d artists in %d browse pages%s', seeded.artworks, seeded.artists, seeded.taxa, state);
  } finally {
    await db.$disconnect();
  }
}
