import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// The shops (npm start) run only where Chromium exists; see playwright.config.ts.
test.skip(!existsSync('/usr/bin/chromium'), 'no Chromium: the shop server was not started');

/** What the README promises a new user: the served shop takes an order and finds it again. */
test('the production server takes an order over /v1 and its lookup shows it', async ({ request }) => {
  const created = await request.post('/v1/orders', {
    data: {
      kind: 'reproduction',
      artworkSlug: 'girl-with-a-pearl-earring',
      size: '30x40',
      frame: 'framed',
      locale: 'fr',
      customer: { name: 'Jeanne Martin', email: 'jeanne@example.fr', address: '5 rue de Rivoli', city: 'Paris', postalCode: '75004', country: 'FR' },
    },
  });
  expect(created.status()).toBe(201);
  const { code, total, checkoutUrl } = await created.json();
  expect(total).toBe(12900 + 9900);
  expect(checkoutUrl).toBeNull();

  const lookup = await request.get(`/v1/orders/${code}?email=JEANNE@example.fr`);
  expect(lookup.status()).toBe(200);
  expect((await lookup.json()).order).toMatchObject({ code, status: 'pending', artworkSlug: 'girl-with-a-pearl-earring', events: [{ status: 'pending' }] });
});

test('the production server answers errors with the contract body and hides nothing it should not', async ({ request }) => {
  const malformed = await request.post('/v1/orders', { headers: { 'content-type': 'application/json' }, data: Buffer.from('{"kind":') });
  expect(malformed.status()).toBe(400);
  expect(await malformed.json()).toEqual({ error: { code: 'invalid_input', message: expect.any(String) } });

  const unknown = await request.get('/v1/nothing-here');
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.code).toBe('not_found');

  const staff = await request.get('/v1/admin/orders');
  expect(staff.status()).toBe(401);

  const doc = await request.get('/v1/openapi.json');
  expect(doc.status()).toBe(200);
  expect((await doc.json()).info.version).toBe('1.0.0');
});

test('the site serves its sitemap index and chunks, built from the sitemap data', async ({ request }) => {
  const index = await request.get('/sitemap.xml');
  expect(index.status()).toBe(200);
  const xml = await index.text();
  const chunk = /<loc>[^<]*(\/sitemaps\/artworks-1\.xml)<\/loc>/.exec(xml);
  expect(chunk, xml).not.toBeNull();
  const artworks = await request.get(chunk![1]!);
  expect(artworks.status()).toBe(200);
  expect(await artworks.text()).toMatch(/<loc>[^<]*\/en\/artworks\/mona-lisa<\/loc>.*hreflang="ja"/);
  expect((await request.get('/sitemaps/artworks-99.xml')).status()).toBe(404);
});
