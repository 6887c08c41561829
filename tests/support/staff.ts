import { expect } from 'vitest';
import { custom, customer as ada, reproduction } from './orders';
import { STAFF } from './photos';
import { rest, type RestAnswer } from './rest';

export { STAFF };

/**
 * The customer of these tests: another e-mail than orders.test.ts's, whose checks count that
 * customer's orders while the files run side by side on one database.
 */
export const customer = { ...ada, email: 'workshop-tests@example.com' };

/** A new order through POST /v1/orders; answers its code. */
export async function newOrder(kind: 'reproduction' | 'custom' = 'reproduction', overrides: Record<string, unknown> = {}): Promise<string> {
  const answer = await rest('POST', '/orders', { json: kind === 'custom' ? await custom({ customer, ...overrides }) : reproduction({ customer, ...overrides }) });
  if (answer.status !== 201) throw new Error(`order creation failed: ${JSON.stringify(answer.body)}`);
  return answer.body.code as string;
}

/** POST /v1/admin/orders/{code}/status with the staff token. */
export const changeStatus = (code: string, body: Record<string, unknown>, headers: Record<string, string> = STAFF): Promise<RestAnswer> =>
  rest('POST', `/admin/orders/${code}/status`, { json: body, headers });

/** The customer's lookup of an order. */
export async function lookup(code: string, email = customer.email) {
  const answer = await rest('GET', `/orders/${code}`, { query: { email } });
  if (answer.status !== 200) throw new Error(`lookup failed: ${JSON.stringify(answer.body)}`);
  return answer.body.order as {
    status: string;
    trackingNumber: string | null;
    sketchStatus: string | null;
    events: { status: string; note: string | null; at: string; sketchStatus: string | null; actor: string }[];
  };
}

/** The /v1 error contract: exactly `{ error: { code, message[, details] } }` with this status. */
export const expectError = (answer: { status: number; body: any }, status: number, code: string) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(Object.keys(answer.body)).toEqual(['error']);
  expect(answer.body.error).toMatchObject({ code, message: expect.any(String) });
};
