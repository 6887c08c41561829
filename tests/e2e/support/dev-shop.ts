import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startShopServer } from '../../../scripts/lib/shop-server';
import { E2E_ADMIN_TOKEN, E2E_CHROMIUM, E2E_DEV_PORT } from './env';

/**
 * The global setup of playwright.dev.config.ts: the shop as `npm run dev` serves it, with its own
 * embedded PostgreSQL. Next's development server compiles each route on its first request, so the
 * routes the specs visit are asked for once here, before the first spec's timeout starts.
 */
const DEV_WARM_UP = [
  '/v1/artworks?page=1',
  '/v1/orders/NOPE?email=a@example.org',
  '/en',
  '/ja/artworks/the-starry-night',
  '/de/artworks?q=nacht',
  '/sitemap.xml',
  '/sitemaps/artworks-1.xml',
];

export default async function startDevShop(): Promise<() => Promise<void>> {
  if (!existsSync(E2E_CHROMIUM)) return async () => {};
  const shop = await startShopServer({
    dev: true,
    port: E2E_DEV_PORT,
    dataDir: path.join(os.tmpdir(), 'art-prints-e2e-dev'),
    freshDataDir: true,
    output: 'inherit',
    env: { ADMIN_TOKEN: E2E_ADMIN_TOKEN, RATE_LIMIT_MULTIPLIER: '10' },
  });
  try {
    for (const address of DEV_WARM_UP) await (await fetch(`${shop.url}${address}`)).arrayBuffer();
  } catch (error) {
    await shop.stop();
    throw error;
  }
  return shop.stop;
}
