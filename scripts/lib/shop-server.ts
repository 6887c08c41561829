/**
 * The one way the tests, the benchmark and Lighthouse start a shop: `npm start` of a checkout, so
 * the shop runs exactly as production starts it (scripts/start.ts: check the settings, open the
 * database, migrate, seed, build when the sources changed unless `prebuilt`, serve), whatever
 * start.ts runs underneath. Ready when `/v1/health` answers 200. `stop()` asks start.ts to stop
 * (SIGTERM: it stops the server, then the embedded database it started) and kills whatever of the
 * shop's process group is still there after `stopGraceMs`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port';

/** This checkout. */
export const SHOP_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Variables of the caller's environment that name outside services or belong to the caller's own
 * tool: a developer's Stripe key or the test runner's worker id must not reach a shop under test.
 * A caller that wants one hands it in through `env`.
 */
export const CALLER_ONLY_VARIABLES = [
  'DATABASE_URL',
  'PORT',
  'DATA_DIR',
  'PUBLIC_BASE_URL',
  'NEXTAUTH_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_API_BASE',
  'STRIPE_WEBHOOK_SECRET',
  'SMTP_URL',
  'INNGEST_EVENT_KEY',
  'INNGEST_SIGNING_KEY',
  'INNGEST_DEV',
  'INNGEST_BASE_URL',
  'UPLOAD_STORAGE',
  'LLM_BASE_URL',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'GOOGLE_ISSUER',
  'GOOGLE_JWKS_URL',
  'ALLOW_TEST_IDENTITY_PROVIDER',
  // The test suite's own switch (tests/support/setup.ts); a production shop refuses it.
  'STAFF_LOCKOUT_OFF',
  'VITEST',
  'VITEST_POOL_ID',
  'VITEST_WORKER_ID',
  'NODE_OPTIONS',
  'TEST_DATABASE_URL',
];

export interface ShopServerOptions {
  /** The checkout to start (its package.json's `start` script); this one by default. */
  root?: string;
  /** The shop's database. Absent: start.ts starts the embedded PostgreSQL in the data folder. */
  databaseUrl?: string;
  /** A free port of 127.0.0.1 by default. A port something already listens on is refused. */
  port?: number;
  /** DATA_DIR. By default a temporary folder, removed when the shop stops. */
  dataDir?: string;
  /** Empty the given dataDir first (once the port is known free), so a run starts as on a fresh machine. */
  freshDataDir?: boolean;
  /** Serve the build in .next as it is (`npm start -- --prebuilt`): no source check, no build. */
  prebuilt?: boolean;
  /** `npm run dev` instead: Next's development server, from source (tests/e2e/support/dev-shop.ts). */
  dev?: boolean;
  /** What to run in `root` instead of npm: the image's CMD in its tree (scripts/lib/image-tree.ts). */
  command?: string[];
  /** Set over the defaults; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** How long to wait for `/v1/health` (a build may come first). Default 10 minutes. */
  readyTimeoutMs?: number;
  /** How long `stop()` waits for a clean stop before killing the process group. Default 30 s. */
  stopGraceMs?: number;
  /**
   * Where the shop's output goes besides the tail kept for `output()`: `inherit` to this process's
   * stdout and stderr, a file path (appended to), or nowhere (`quiet`, the default).
   */
  output?: 'inherit' | 'quiet' | { file: string };
  /** A folder for a CPU profile of every Node process of the shop (written when each exits). */
  cpuProfileDir?: string;
}

export interface ShopServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The process group of everything the shop started (its first process's pid). */
  processGroup: number;
  dataDir: string;
  /** The tail of what the shop printed (start.ts's, Next's and the server's logs), for failure messages. */
  output(): string;
  /** Whether the process started is still running (the shop never restarts itself). */
  alive(): boolean;
  // A function property, not a method: callers hand it around on its own (`stop: shop.stop`).
  stop: () => Promise<void>;
}

const KEEP_OUTPUT = 4_000_000;
const CPU_PROFILE_PRELOAD = fileURLToPath(new URL('./cpu-profile.mjs', import.meta.url));

/** The environment a shop is started with: the caller's, minus CALLER_ONLY_VARIABLES, plus the shop's settings and `env`. */
export function shopEnvironment(
  base: Record<string, string | undefined>,
  settings: { port: number; url: string; dataDir: string; databaseUrl?: string; cpuProfileDir?: string; env?: Record<string, string | undefined> },
): Record<string, string> {
  const env: Record<string, string | undefined> = { ...base };
  for (const name of CALLER_ONLY_VARIABLES) delete env[name];
  Object.assign(env, {
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(settings.port),
    DATA_DIR: settings.dataDir,
    PUBLIC_BASE_URL: settings.url,
    // Production refuses DATABASE_URL without NEXTAUTH_SECRET (instances must share it): a shop
    // started here is one instance, so a secret of its own does; several on one database get theirs
    // from the caller (tests/load/shop.ts).
    ...(settings.databaseUrl ? { DATABASE_URL: settings.databaseUrl, NEXTAUTH_SECRET: base.NEXTAUTH_SECRET ?? randomBytes(32).toString('base64url') } : {}),
    ...(settings.cpuProfileDir ? { NODE_OPTIONS: `--import=${CPU_PROFILE_PRELOAD}`, CPU_PROFILE_DIR: settings.cpuProfileDir } : {}),
    ...settings.env,
  });
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  return env as Record<string, string>;
}

export async function startShopServer(options: ShopServerOptions = {}): Promise<ShopServer> {
  const root = options.root ?? SHOP_ROOT;
  const port = options.port ?? (await freePort());
  await assertPortFree(port);
  const url = `http://127.0.0.1:${port}`;
  const ownDataDir = options.dataDir === undefined;
  if (options.freshDataDir && options.dataDir) rmSync(options.dataDir, { recursive: true, force: true });
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'art-prints-shop-'));
  // As root the embedded PostgreSQL runs as user postgres, which must enter the data folder.
  if (ownDataDir) chmodSync(dataDir, 0o755);
  const env = shopEnvironment(process.env, {
    port,
    url,
    dataDir,
    databaseUrl: options.databaseUrl,
    cpuProfileDir: options.cpuProfileDir,
    env: { ...(options.dev ? { NODE_ENV: 'development' } : {}), ...options.env },
  });

  // Its own process group: stop() can then reach everything the shop started (the server, a build,
  // the embedded PostgreSQL) even if start.ts itself is gone.
  const [program, ...args] = options.command ?? ['npm', ...(options.dev ? ['run', 'dev'] : ['start', ...(options.prebuilt ? ['--', '--prebuilt'] : [])])];
  const child = spawn(program!, args, {
    cwd: root,
    env: env as NodeJS.ProcessEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let kept = '';
  const file = typeof options.output === 'object' ? createWriteStream(options.output.file, { flags: 'a' }) : null;
  const keep = (target: NodeJS.WriteStream) => (chunk: Buffer) => {
    kept += chunk.toString('utf8');
    if (kept.length > 2 * KEEP_OUTPUT) kept = kept.slice(-KEEP_OUTPUT); // an outage logs a stack per failed request
    if (options.output === 'inherit') target.write(chunk);
    file?.write(chunk);
  };
  child.stdout!.on('data', keep(process.stdout));
  child.stderr!.on('data', keep(process.stderr));
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
    child.once('error', () => {
      exited = true;
      resolve();
    });
  });

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (!exited) {
        // npm hands the signal to start.ts, which stops the server and then its database.
        signal(child.pid, 'SIGTERM');
        const killer = setTimeout(() => signal(-child.pid!, 'SIGKILL'), options.stopGraceMs ?? 30_000);
        await exit;
        clearTimeout(killer);
      }
      signal(-child.pid!, 'SIGKILL'); // whatever of the group is left behind
      await new Promise<void>((resolve) => (file ? file.end(resolve) : resolve()));
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    })());

  const deadline = Date.now() + (options.readyTimeoutMs ?? 600_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`the shop of ${root} on port ${port} exited before it answered:\n${kept.slice(-4000)}`);
    }
    if (await ready(url)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the shop of ${root} on port ${port} did not answer /v1/health in time:\n${kept.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { url, port, processGroup: child.pid!, dataDir, output: () => kept, alive: () => !exited, stop };
}

/** A negative pid signals the process group. */
function signal(pid: number | undefined, name: NodeJS.Signals) {
  if (!pid) return;
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** Refuses a port another server holds: its answers would pass for the new shop's. */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} is in use: stop what listens there (an earlier run's shop?) or choose another`) : error),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/**
 * `/v1/health` answering 200; on a build from before the health endpoint (404), the first page of
 * `/v1/artists` (the benchmark may start an older commit's build).
 */
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
