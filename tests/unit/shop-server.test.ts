import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { freePort } from '../../scripts/lib/free-port';
import { CALLER_ONLY_VARIABLES, shopEnvironment, startShopServer } from '../../scripts/lib/shop-server';

/**
 * The helper that starts a shop for the tests, the benchmark and Lighthouse (scripts/lib/shop-server.ts),
 * against a stand-in checkout whose `npm start` is a small server: it is started through npm with the
 * settings and arguments asked for, is ready when /v1/health answers, and stops through the signal
 * start.ts handles. (The real shop needs a build, which tests do not make.)
 */
const checkout = mkdtempSync(path.join(tmpdir(), 'shop-server-test-'));
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

writeFileSync(path.join(checkout, 'package.json'), JSON.stringify({ name: 'stand-in-shop', private: true, type: 'module', scripts: { start: 'exec node stand-in.js' } }));
writeFileSync(
  path.join(checkout, 'stand-in.js'),
  `import http from 'node:http';
import { writeFileSync } from 'node:fs';
const record = (what) => writeFileSync(process.env.RECORD, JSON.stringify(what));
if (process.env.FAIL_AT_START) { console.error('could not start: ' + process.env.FAIL_AT_START); process.exit(1); }
record({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd() });
let ready = false;
setTimeout(() => (ready = true), 600);
const server = http.createServer((req, res) => res.writeHead(ready && req.url === '/v1/health' ? 200 : 503).end());
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('stand-in listening'));
process.on('SIGTERM', () => { record({ stopped: 'SIGTERM' }); server.close(() => process.exit(0)); });
`,
);

describe('the shop-starting helper', () => {
  test('starts `npm start -- --prebuilt` in the checkout with the asked settings, waits for /v1/health, stops through SIGTERM', async () => {
    const record = path.join(checkout, 'record.json');
    const shop = await startShopServer({ root: checkout, prebuilt: true, databaseUrl: 'postgresql://shop@127.0.0.1:5999/shop', env: { RECORD: record, EXTRA: 'yes' } });
    try {
      const seen = JSON.parse(readFileSync(record, 'utf8')) as { argv: string[]; env: Record<string, string>; cwd: string };
      expect(seen.argv).toEqual(['--prebuilt']);
      expect(seen.cwd).toBe(checkout);
      expect(seen.env).toMatchObject({
        PORT: String(shop.port),
        DATABASE_URL: 'postgresql://shop@127.0.0.1:5999/shop',
        PUBLIC_BASE_URL: shop.url,
        DATA_DIR: shop.dataDir,
        NODE_ENV: 'production',
        EXTRA: 'yes',
      });
      expect(shop.url).toBe(`http://127.0.0.1:${shop.port}`);
      expect((await fetch(`${shop.url}/v1/health`)).status).toBe(200);
      expect(shop.alive()).toBe(true);
      expect(shop.output()).toContain('stand-in listening');
      expect(existsSync(shop.dataDir)).toBe(true);
    } finally {
      await shop.stop();
    }
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual({ stopped: 'SIGTERM' });
    expect(shop.alive()).toBe(false);
    expect(existsSync(shop.dataDir), 'its own temporary data folder is removed').toBe(false);
    await expect(fetch(`${shop.url}/v1/health`)).rejects.toThrow();
    await shop.stop(); // a second stop is harmless
  }, 60_000);

  test('without prebuilt, start.ts gets no argument (it checks the build itself)', async () => {
    const record = path.join(checkout, 'record-plain.json');
    const shop = await startShopServer({ root: checkout, env: { RECORD: record } });
    try {
      expect((JSON.parse(readFileSync(record, 'utf8')) as { argv: string[] }).argv).toEqual([]);
    } finally {
      await shop.stop();
    }
  }, 60_000);

  test('a shop that exits before it answers fails the start with what it printed', async () => {
    await expect(startShopServer({ root: checkout, env: { FAIL_AT_START: 'no database' } })).rejects.toThrow(/exited before it answered[\s\S]*could not start: no database/);
  }, 60_000);

  test('a port something already listens on is refused, not mistaken for the new shop', async () => {
    const port = await freePort();
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
    try {
      await expect(startShopServer({ root: checkout, port })).rejects.toThrow(`port ${port} is in use`);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  test("keeps the caller's outside services and tool variables from the shop; the caller's settings win", () => {
    const base = {
      PATH: '/usr/bin',
      STRIPE_SECRET_KEY: 'sk_live_developer',
      DATABASE_URL: 'postgresql://developer',
      VITEST_WORKER_ID: '3',
      LOG_LEVEL: 'info',
      STAFF_LOCKOUT_OFF: '1',
    };
    const env = shopEnvironment(base, { port: 4100, url: 'http://127.0.0.1:4100', dataDir: '/tmp/x', env: { LOG_LEVEL: 'warn', GONE: undefined } });
    expect(env).toEqual({
      PATH: '/usr/bin',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PORT: '4100',
      DATA_DIR: '/tmp/x',
      PUBLIC_BASE_URL: 'http://127.0.0.1:4100',
    });
    expect(CALLER_ONLY_VARIABLES).toContain('STRIPE_SECRET_KEY');
    const profiled = shopEnvironment({}, { port: 1, url: 'u', dataDir: 'd', databaseUrl: 'postgresql://x', cpuProfileDir: '/tmp/prof' });
    expect(profiled).toMatchObject({
      DATABASE_URL: 'postgresql://x',
      // Production refuses DATABASE_URL without a session secret: one shop, one secret of its own.
      NEXTAUTH_SECRET: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      CPU_PROFILE_DIR: '/tmp/prof',
      NODE_OPTIONS: expect.stringMatching(/^--import=.*scripts\/lib\/cpu-profile\.mjs$/),
    });
  });
});
