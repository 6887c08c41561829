import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildImageTree, startImage, type ImageTree } from '../../scripts/lib/image-tree';
import type { ShopServer } from '../../scripts/lib/shop-server';
import { LOAD_ADMIN_TOKEN, LOAD_SESSION_SECRET, ROOT, testServer, type TestServer } from '../load/shop';

/**
 * The image runs what was measured (issue 40, item 4): the production image's tree, made by
 * following this checkout's Dockerfile (the same install flags, build and prune), started with the
 * image's CMD against a real PostgreSQL, takes an order and serves pages. The benchmark and
 * Lighthouse start the same tree (scripts/bench, scripts/lighthouse.ts).
 */
let server: TestServer;
let tree: ImageTree;
let shop: ShopServer;

beforeAll(async () => {
  server = await testServer();
  const databaseUrl = await server.createDatabase('image');
  tree = await buildImageTree(ROOT, path.join(os.tmpdir(), 'art-prints-image-test'));
  shop = await startImage(tree, { databaseUrl, env: { ADMIN_TOKEN: LOAD_ADMIN_TOKEN, NEXTAUTH_SECRET: LOAD_SESSION_SECRET }, readyTimeoutMs: 120_000 });
});

afterAll(async () => {
  await shop?.stop();
  await server?.close();
});

test('the tree holds the build and the production packages, and no TypeScript runs in it', () => {
  expect(tree.command).toEqual(['node', 'dist/start.mjs', '--prebuilt']);
  expect(tree.env.NODE_ENV).toBe('production');
  for (const file of ['dist/start.mjs', 'server.mjs', 'next.config.mjs', '.next/BUILD_ID', 'src/page-cache/page-cache.mjs', 'prisma/migrations', 'node_modules/next'])
    expect(existsSync(path.join(tree.root, file)), file).toBe(true);
  // Pruned: the tools are gone; the sources are not copied.
  for (const gone of ['node_modules/tsx', 'node_modules/vitest', 'node_modules/eslint', 'src/server', 'scripts', 'tests'])
    expect(existsSync(path.join(tree.root, gone)), gone).toBe(false);
  // The build's scripts come with their precompressed copies, for the reverse proxy.
  const chunks = readdirSync(path.join(tree.root, '.next', 'static', 'chunks'));
  const script = chunks.find((name) => name.endsWith('.js'))!;
  expect(chunks).toContain(`${script}.br`);
  expect(chunks).toContain(`${script}.gz`);
});

test('the image takes an order over /v1 and finds it again', async () => {
  const created = await fetch(`${shop.url}/v1/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      kind: 'reproduction',
      artworkSlug: 'the-starry-night',
      size: '30x40',
      frame: 'rolled',
      locale: 'de',
      customer: { name: 'Ida Pfeiffer', email: 'ida@example.at', address: 'Ringstraße 1', city: 'Wien', postalCode: '1010', country: 'AT' },
    }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const { code } = (await created.json()) as { code: string };
  const lookup = await fetch(`${shop.url}/v1/orders/${code}?email=ida@example.at`);
  expect(lookup.status).toBe(200);
  expect(((await lookup.json()) as { order: { status: string } }).order.status).toBe('pending');
});

test('the image serves pages in any language, from its page cache with their policy', async () => {
  for (const address of ['/en', '/ja/artworks/the-starry-night']) {
    const page = await fetch(`${shop.url}${address}`);
    expect(page.status, address).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
    expect(await page.text()).toContain(`<html lang="${address.slice(1, 3)}"`);
  }
});
