import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { seedCatalog } from '@/server/catalog/seed';
import { createDb } from '@/server/db/client';
import { startEmbeddedPostgres } from '@/server/db/embedded';
import { migrate } from '@/server/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * One real PostgreSQL for the run: the server named by TEST_DATABASE_URL, or an embedded one in a
 * temporary folder. Either way the tests get a database of their own, migrated and seeded.
 */
export default async function setup(project: TestProject) {
  let serverUrl = process.env.TEST_DATABASE_URL;
  let stopServer: (() => Promise<void>) | undefined;
  let folder: string | undefined;
  if (!serverUrl) {
    folder = mkdtempSync(path.join(tmpdir(), 'art-prints-test-'));
    chmodSync(folder, 0o755); // as root, the server runs as user postgres and must enter it
    const server = await startEmbeddedPostgres({ dir: path.join(folder, 'pg'), password: 'test' });
    serverUrl = server.url;
    stopServer = server.stop;
  }
  const name = `artprints_test_${process.pid}_${Date.now()}`;
  const teardown = async () => {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await stopServer?.();
    if (folder) rmSync(folder, { recursive: true, force: true });
  };
  try {
    await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
    const url = withDatabase(serverUrl, name);
    await migrate(url);
    const db = createDb(url);
    await seedCatalog(db);
    await db.$disconnect();
    project.provide('databaseUrl', url);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
