import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The end-to-end server's own embedded PostgreSQL (playwright.config.ts starts `npm start` with
 * DATA_DIR below): its port is in PostgreSQL's postmaster.pid, its password in the data folder's
 * secrets.json. For the few things no endpoint does, such as putting ready works in the queue.
 */
export const E2E_DATA_DIR = path.join(os.tmpdir(), 'art-prints-e2e');

export function e2eDatabaseUrl(): string {
  const port = readFileSync(path.join(E2E_DATA_DIR, 'postgres', 'postmaster.pid'), 'utf8')
    .split('\n')[3]!
    .trim();
  const { postgresPassword } = JSON.parse(readFileSync(path.join(E2E_DATA_DIR, 'secrets.json'), 'utf8')) as { postgresPassword: string };
  return `postgresql://postgres:${encodeURIComponent(postgresPassword)}@127.0.0.1:${port}/artprints`;
}

export async function withE2eDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
