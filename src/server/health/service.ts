import 'server-only';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Prisma } from '@/generated/prisma/client';
import { readRows, type Db } from '@/server/db/client';
import { DomainError } from '@/server/errors';
import { logger } from '@/server/logger';

/** How long the database may take to answer before the instance counts as unhealthy. */
export const HEALTH_TIMEOUT_MS = 2000;

export interface Health {
  status: 'ok';
  database: 'ok';
  migrations: 'current';
}

let shipped: string[] | undefined;

/** The migrations this build ships (prisma/migrations, beside the running server). */
export function shippedMigrations(): string[] {
  // Spelled out in the call so the bundler traces this one folder, not the whole project.
  shipped ??= readdirSync(path.join(process.cwd(), 'prisma', 'migrations'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return shipped;
}

const unavailable = (message: string) => new DomainError('unavailable', message);

/**
 * For load balancers: the database answers within `timeoutMs` (the read of the applied migrations is
 * the one round trip: it proves the database answers, too), and every migration this build ships is
 * applied (an instance of a newer version must not take traffic on an old schema).
 * Failing, it throws `unavailable` (503); what failed goes to the log, not to the answer, which
 * names no version, host or migration.
 */
export async function checkHealth(db: Db, options: { timeoutMs?: number; migrations?: string[] } = {}): Promise<Health> {
  const timeoutMs = options.timeoutMs ?? HEALTH_TIMEOUT_MS;
  let applied: Set<string>;
  try {
    applied = await within(timeoutMs, async () => {
      const rows = await readRows<{ migration_name: string }>(
        db,
        Prisma.sql`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      );
      return new Set(rows.map((row) => row.migration_name));
    });
  } catch (error) {
    logger.error({ err: error }, 'health: the database did not answer');
    throw unavailable('The database is not reachable.');
  }
  let expected: string[];
  try {
    expected = options.migrations ?? shippedMigrations();
  } catch (error) {
    logger.error({ err: error }, 'health: the shipped migrations cannot be listed');
    throw unavailable('The migrations cannot be checked.');
  }
  const pending = expected.filter((name) => !applied.has(name));
  if (pending.length) {
    logger.error({ pending }, 'health: migrations are not applied');
    throw unavailable('The database schema is not current.');
  }
  return { status: 'ok', database: 'ok', migrations: 'current' };
}

function within<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work(), timeout]).finally(() => clearTimeout(timer));
}
