/**
 * The shop as production runs it, for the load, fault and two-instance runs: `node --import tsx
 * --import ./scripts/server-process.mjs scripts/start.ts` with a DATABASE_URL and a PORT (it migrates, seeds, builds when the sources
 * changed, then serves the production build). Also the databases those runs use: the server named
 * by TEST_DATABASE_URL, or an embedded PostgreSQL in a temporary folder, which a run can stop and
 * start again on the same port (the database restart fault).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, startEmbeddedPostgres, type RunningDatabase } from '@/server/db/embedded';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The staff token of these runs. */
export const LOAD_ADMIN_TOKEN = 'load-staff-token-93be1f-0c6a2d7e48b1';
export const LOAD_SESSION_SECRET = 'load-session-secret-0123456789abcdef0123';

export interface Shop {
  url: string;
  port: number;
  /** What the process printed so far (start.ts's and Next's logs), for a failure message. */
  output(): string;
  /** Whether the server process is still the one that was started (it never restarts itself). */
  alive(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts scripts/start.ts and waits until the shop answers. Readiness: `/v1/health` answering 200,
 * or, on a build that has no health endpoint yet (404), the first page of `/v1/artists`.
 */
export async function startShop(options: {
  databaseUrl: string;
  port: number;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}): Promise<Shop> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'art-prints-shop-'));
  const url = `http://127.0.0.1:${options.port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  // A developer's or the test run's services stay off unless the caller hands them in.
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_API_BASE', 'STRIPE_WEBHOOK_SECRET', 'SMTP_URL', 'INNGEST_EVENT_KEY', 'INNGEST_SIGNING_KEY', 'INNGEST_DEV', 'INNGEST_BASE_URL', 'UPLOAD_STORAGE', 'LLM_BASE_URL', 'GOOGLE_CLIENT_ID', 'NEXTAUTH_URL', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS'])
    delete env[name];
  Object.assign(env, {
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    PORT: String(options.port),
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: url,
    ADMIN_TOKEN: LOAD_ADMIN_TOKEN,
    NEXTAUTH_SECRET: LOAD_SESSION_SECRET,
    // Every virtual client comes with its own X-Forwarded-For address; the limits are exercised, not hit.
    TRUST_PROXY: '1',
    RATE_LIMIT_MULTIPLIER: '1000',
    LOG_LEVEL: 'warn',
    NEXT_TELEMETRY_DISABLED: '1',
    ...options.env,
  });
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];

  let log = '';
  // Its own process group, so that stopping it also stops the `next start` it spawned.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/server-process.mjs', 'scripts/start.ts'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer) => {
    log += chunk.toString('utf8');
    if (log.length > 8_000_000) log = log.slice(-4_000_000); // an outage logs a stack per failed request
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));

  const stop = async () => {
    if (!exited) {
      signal(child, 'SIGTERM');
      const killer = setTimeout(() => signal(child, 'SIGKILL'), 10_000);
      await exit;
      clearTimeout(killer);
      signal(child, 'SIGKILL'); // anything of the group left behind
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.timeoutMs ?? 600_000);
  while (true) {
    if (exited) {
      await stop();
      throw new Error(`the shop on port ${options.port} exited before it answered:\n${log.slice(-4000)}`);
    }
    if (await ready(url)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the shop on port ${options.port} did not answer in time:\n${log.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { url, port: options.port, output: () => log, alive: () => !exited, stop };
}

function signal(child: ChildProcess, name: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, name);
  } catch {
    // already gone
  }
}

async function ready(url: string): Promise<boolean> {
  try {
    const health = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(5_000) });
    await health.arrayBuffer();
    if (health.status === 200) return true;
    if (health.status !== 404) return false;
    const artists = await fetch(`${url}/v1/artists`, { signal: AbortSignal.timeout(10_000) });
    await artists.arrayBuffer();
    return artists.status === 200;
  } catch {
    return false;
  }
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
