import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startShopServer, type ShopServer } from '../../../scripts/lib/shop-server';
import { e2eGoogleEnv } from '../../support/e2e-oidc';
import { E2E_PAYING_SHOP_PORT, E2E_PAYING_SHOP_URL, e2eStripeEnv } from '../../support/e2e-stripe';
import { E2E_DATA_DIR } from './database';
import { E2E_ADMIN_TOKEN, E2E_BASE_URL, E2E_CHROMIUM, E2E_BANK, E2E_LOG_FILE, E2E_PORT } from './env';

/**
 * Playwright's global setup: the two shops of the run, started by the one helper
 * (scripts/lib/shop-server.ts, `npm start` as production starts it) after Playwright's web servers
 * (the Google and Stripe stand-ins) are up. Answers the teardown that stops them. Without Chromium
 * no shop is started either; each spec skips itself.
 */
export default async function startE2eShops(): Promise<() => Promise<void>> {
  if (!existsSync(E2E_CHROMIUM)) return async () => {};
  const started: ShopServer[] = [];
  const stopAll = async () => {
    for (const shop of started.reverse()) await shop.stop();
  };
  try {
    // The shop every spec browses: its embedded PostgreSQL in E2E_DATA_DIR (tests/e2e/support/database.ts reads it).
    started.push(
      await startShopServer({
        port: E2E_PORT,
        dataDir: E2E_DATA_DIR,
        // Every run from the same start: a run stopped halfway left its favorites, orders and log.
        freshDataDir: true,
        output: 'inherit',
        env: {
          ADMIN_TOKEN: E2E_ADMIN_TOKEN,
          // The log of the whole run, which the last spec (zz-logs.spec.ts) searches for secrets and e-mail addresses.
          LOG_FILE: E2E_LOG_FILE,
          LOG_LEVEL: 'debug',
          // Every spec's browser is one client (127.0.0.1): the per-customer allowances would trip
          // across specs, not within one.
          RATE_LIMIT_MULTIPLIER: '10',
          // As behind a load balancer: limits.spec.ts speaks as another address through X-Forwarded-For.
          TRUST_PROXY: '1',
          ...e2eGoogleEnv(E2E_BASE_URL),
          // Without a payment provider, orders are paid by bank transfer to the studio's account (payment.spec.ts).
          ...E2E_BANK,
        },
      }),
    );
    // A second shop that takes payment through the Stripe stand-in (payment.spec.ts); started after
    // the first has built the site, so it serves the same build. It serves from two processes
    // (SERVER_PROCESSES), so ordering and paying also run across processes (processes.spec.ts).
    started.push(
      await startShopServer({
        port: E2E_PAYING_SHOP_PORT,
        dataDir: path.join(os.tmpdir(), 'art-prints-e2e-paying'),
        freshDataDir: true,
        output: 'inherit',
        // Signing in works there too: the basket journey signs in before it pays (shopping-basket.spec.ts).
        env: { ADMIN_TOKEN: E2E_ADMIN_TOKEN, RATE_LIMIT_MULTIPLIER: '10', SERVER_PROCESSES: '2', ...e2eStripeEnv(), ...e2eGoogleEnv(E2E_PAYING_SHOP_URL) },
      }),
    );
    // As Playwright's readiness check did: each shop has rendered its home page once before the first spec.
    for (const shop of started) await (await fetch(`${shop.url}/en`)).arrayBuffer();
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}
