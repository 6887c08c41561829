import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate } from '@/server/db/migrate';
import { diffSchemas } from '../../scripts/lib/schema-diff';
import { adminQuery, withDatabase } from '../support/global-setup';

/** `npm run db:diff` (scripts/db-diff.ts): the migration writer, by the schema engine Prisma 7.10 ships. */
const serverUrl = process.env.DATABASE_URL!;
const stamp = `${process.pid}_${Date.now()}`;
const fromDiff = withDatabase(serverUrl, `artprints_diff_${stamp}`);
const fromMigrations = withDatabase(serverUrl, `artprints_migrated_${stamp}`);
const schema = readFileSync('prisma/schema.prisma', 'utf8');

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * What schema.prisma declares, as the database holds it: every table's columns with their types,
 * nullability and defaults, the enums, the foreign keys and the unique and primary keys. Objects the
 * migrations add by hand below Prisma's part (generated columns, trigram indexes, triggers) are left
 * out: schema.prisma does not declare them.
 */
async function declared(url: string): Promise<{ columns: string[]; enums: string[]; keys: string[] }> {
  const columns = await query<{ c: string }>(
    url,
    `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS c
       FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' AND is_generated = 'NEVER'
      ORDER BY 1`,
  );
  const enums = await query<{ c: string }>(
    url,
    `SELECT t.typname || ': ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS c
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY 1`,
  );
  const keys = await query<{ c: string }>(
    url,
    `SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS c
       FROM pg_constraint WHERE contype IN ('f', 'p', 'u') AND connamespace = 'public'::regnamespace
        AND conrelid::regclass::text <> '_prisma_migrations' ORDER BY 1`,
  );
  return { columns: columns.map((r) => r.c), enums: enums.map((r) => r.c), keys: keys.map((r) => r.c) };
}

beforeAll(async () => {
  await adminQuery(serverUrl, `CREATE DATABASE artprints_diff_${stamp}`);
  await adminQuery(serverUrl, `CREATE DATABASE artprints_migrated_${stamp}`);
});

afterAll(async () => {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS artprints_diff_${stamp} WITH (FORCE)`);
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS artprints_migrated_${stamp} WITH (FORCE)`);
});

describe('db:diff', () => {
  test('empty → schema.prisma applies to a fresh database and gives what the committed migrations give', async () => {
    const sql = await diffSchemas(null, schema, serverUrl);
    expect(sql).toContain('CREATE TABLE "artworks"');
    await query(fromDiff, sql);
    await migrate(fromMigrations);
    const [written, committed] = [await declared(fromDiff), await declared(fromMigrations)];
    expect(written.columns.length).toBeGreaterThan(100);
    expect(written).toEqual(committed);
  });

  test('a schema against itself is no migration; a new field is one ALTER TABLE', async () => {
    expect(await diffSchemas(schema, schema, serverUrl)).toBe('');
    const withField = schema.replace(/(model Artwork \{\n)/, '$1  framed Boolean @default(false)\n');
    expect(withField).not.toBe(schema);
    const sql = await diffSchemas(schema, withField, serverUrl);
    expect(sql).toMatch(/ALTER TABLE "artworks" ADD COLUMN\s+"framed" BOOLEAN NOT NULL DEFAULT false;/);
  });

  test('a schema from before Prisma 7, with the datasource url, diffs too', async () => {
    const prisma6 = schema.replace(/provider = "postgresql"\n/, 'provider = "postgresql"\n  url      = env("DATABASE_URL")\n');
    expect(prisma6).not.toBe(schema);
    expect(await diffSchemas(prisma6, schema, serverUrl)).toBe('');
  });
});
