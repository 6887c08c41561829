import { expect, type APIRequestContext } from '@playwright/test';

/** The customer of the orders the e2e specs place. */
export const ORDER_EMAIL = 'ada@example.com';

/** A reproduction of The Starry Night ordered through the public API, as any client would; its code. */
export async function orderStarryNight(request: APIRequestContext, locale = 'en'): Promise<string> {
  const created = await request.post('/v1/orders', {
    data: {
      kind: 'reproduction',
      artworkSlug: 'the-starry-night',
      size: '50x70',
      frame: 'framed',
      locale,
      customer: { name: 'Ada Lovelace', email: ORDER_EMAIL, address: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
    },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { code: string }).code;
}
