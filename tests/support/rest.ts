import { createContext } from '@/server/api/context';
import { handleRest } from '@/server/api/rest';
import type { Db } from '@/server/db/client';
import type { PaymentProvider } from '@/server/payments/provider';

export interface RestAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the /v1 surface exactly as Next's route handler does, with a real Request. */
export async function rest<T = any>(
  method: string,
  path: string,
  options: { json?: unknown; body?: BodyInit; headers?: Record<string, string>; query?: Record<string, string>; db?: Db; payments?: PaymentProvider } = {},
): Promise<RestAnswer<T>> {
  const url = new URL(`http://shop.test/v1${path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const headers = new Headers(options.headers);
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const request = new Request(url, { method, headers, body });
  const custom = options.db || options.payments;
  const response = await (custom ? handleRest(request, ({ req }) => createContext({ req, db: options.db, payments: options.payments })) : handleRest(request));
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the test sees the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}
