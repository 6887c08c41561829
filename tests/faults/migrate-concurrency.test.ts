import { afterAll, describe, expect, test } from 'vitest';
import { listMigrations, migrate } from '@/server/db/migrate';
import { adminQuery, withDatabase } from '../support/global-setup';
import pg from 'pg';

/**
 * Several instances starting at once each run the migration step (scripts/start.ts), so it must be
 * safe to run concurrently: Prisma's advisory lock makes the others wait, and they find the work done.
 */
const server = process.env.DATABASE_URL!;
const name = `artprints_migrate_${process.pid}_${Date.now()}`;
afterAll(() => adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

describe('migrations started by several instances at once', () => {
  test('on an empty database, each migration is applied once, by exactly one of them', async () => {
    await adminQuery(server, `CREATE DATABASE ${name}`);
    const url = withDatabase(server, name);
    const runs = await Promise.all(Array.from({ length: 4 }, () => migrate(url)));
    const all = listMigrations().map((m) => m.name);
    expect(runs.flat().sort()).toEqual(all);
    expect(runs.filter((names) => names.length > 0)).toHaveLength(1);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ migration_name: string; n: number; unfinished: number }>(
        'SELECT migration_name, count(*)::int AS n, count(*) FILTER (WHERE finished_at IS NULL)::int AS unfinished FROM _prisma_migrations GROUP BY 1 ORDER BY 1',
      );
      expect(rows.map((r) => r.migration_name)).toEqual(all);
      expect(rows.every((r) => r.n === 1 && r.unfinished === 0)).toBe(true);
    } finally {
      await client.end();
    }
    // And again, all at once, on the current database: nothing to do for anyone.
    expect((await Promise.all(Array.from({ length: 3 }, () => migrate(url)))).flat()).toEqual([]);
  });
});
