/**
 * The shop for the load, fault and two-instance runs, started by the one helper
 * (scripts/lib/shop-server.ts: `npm start` with a DATABASE_URL and a PORT; it migrates, seeds,
 * builds when the sources changed, then serves the production build) with these runs' settings.
 * Also the databases those runs use: the server named by TEST_DATABASE_URL, or an embedded
 * PostgreSQL in a temporary folder, which a run can stop and start again on the same port (the
 * database restart fault).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type RunningDatabase } from '@/server/db/embedded';
import { freePort } from '../../scripts/lib/free-port';
import { SHOP_ROOT, startShopServer, type ShopServer } from '../../scripts/lib/shop-server';

export const ROOT = SHOP_ROOT;

/** The staff token of these runs. */
export const LOAD_ADMIN_TOKEN = 'load-staff-token-93be1f-0c6a2d7e48b1';
export const LOAD_SESSION_SECRET = 'load-session-secret-0123456789abcdef0123';

export type Shop = Pick<ShopServer, 'url' | 'port' | 'output' | 'alive' | 'stop'>;

/** Starts the shop on `databaseUrl` and waits until `/v1/health` answers. */
export async function startShop(options: { databaseUrl: string; port: number; env?: Record<string, string | undefined>; timeoutMs?: number }): Promise<Shop> {
  return startShopServer({
    databaseUrl: options.databaseUrl,
    port: options.port,
    readyTimeoutMs: options.timeoutMs,
    env: {
      ADMIN_TOKEN: LOAD_ADMIN_TOKEN,
      NEXTAUTH_SECRET: LOAD_SESSION_SECRET,
      // Every virtual client comes with its own X-Forwarded-For address; the limits are exercised, not hit.
      TRUST_PROXY: '1',
      RATE_LIMIT_MULTIPLIER: '1000',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
  });
}

export interface TestServer {
  /** The server's address (database `postgres`). */
  serverUrl: string;
  /** A fresh, empty database on it. */
  createDatabase(label: string): Promise<string>;
  /** Only for the embedded server: stop it, and start it again on the same port with the same files. */
  restart?: { stop(): Promise<void>; start(): Promise<void> };
  close(): Promise<void>;
}

/** TEST_DATABASE_URL's server, or an embedded PostgreSQL in a temporary folder (`embedded: true` forces it). */
export async function testServer(options: { embedded?: boolean } = {}): Promise<TestServer> {
  const created: string[] = [];
  const createDatabase = async (serverUrl: string, label: string) => {
    const name = `artprints_${label}_${process.pid}_${Date.now()}`;
    await admin(serverUrl, `CREATE DATABASE ${name}`);
    created.push(name);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const dropAll = async (serverUrl: string) => {
    for (const name of created) await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  };

  const configured = process.env.TEST_DATABASE_URL;
  if (configured && !options.embedded) {
    return { serverUrl: configured, createDatabase: (label) => createDatabase(configured, label), close: () => dropAll(configured) };
  }
  const folder = mkdtempSync(path.join(tmpdir(), 'art-prints-load-'));
  chmodSync(folder, 0o755); // as root, the server runs as user postgres and must enter it
  const port = await freePort();
  const dir = path.join(folder, 'pg');
  let running: RunningDatabase | null = await startEmbeddedPostgres({ dir, password: 'load', port });
  const serverUrl = running.url.replace(/\/[^/]*$/, '/postgres');
  return {
    serverUrl,
    createDatabase: (label) => createDatabase(serverUrl, label),
    restart: {
      stop: async () => {
        await running?.stop();
        running = null;
      },
      start: async () => {
        running = await startEmbeddedPostgres({ dir, password: 'load', port });
      },
    },
    close: async () => {
      await running?.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function admin(serverUrl: string, sql: string) {
  const url = new URL(serverUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
