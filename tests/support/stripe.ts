import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { Checkout } from '@/server/orders/service';

export const STRIPE_TEST_KEY = 'sk_test_local_stand_in';
/** The webhook secret of the test run (tests/support/setup.ts configures it). */
export const WEBHOOK_SECRET = 'whsec_test_local_secret';

export interface CheckoutRequest {
  params: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

/**
 * A real HTTP server on 127.0.0.1 that answers `POST /v1/checkout/sessions` the way Stripe's API
 * does (form-encoded parameters in, a checkout.session object out), so the real SDK runs against it.
 * `failWith` makes it answer like a Stripe outage.
 */
export async function startStripeServer(options: { port?: number; payPages?: { webhookUrl: string } } = {}) {
  const requests: CheckoutRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const expired: string[] = [];
  const control = { failWith: 0 };
  let url = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` }).end(JSON.stringify(body));
      // Stripe's hosted checkout page, for the browser tests: a "Pay" button that completes the
      // session the way Stripe does, by a signed checkout.session.completed to the shop's webhook,
      // then returns the browser to the session's success address.
      const paying = options.payPages ? /^\/pay\/(cs_test_\w+)$/.exec(req.url ?? '') : null;
      if (paying) {
        const session = sessions.get(paying[1]!);
        if (!session || session.status !== 'open') return res.writeHead(410, { 'content-type': 'text/plain' }).end('This checkout session has expired.');
        if (req.method === 'GET') {
          return res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(`<!doctype html><title>Stripe stand-in</title><h1>Pay ${Number(session.amount_total) / 100} USD</h1><form method="post"><button>Pay</button></form>`);
        }
        const event = checkoutEvent('checkout.session.completed', { code: String(session.client_reference_id), amount: Number(session.amount_total), id: String(session.id) });
        const payload = JSON.stringify(event);
        session.status = 'complete';
        void fetch(options.payPages!.webhookUrl, { method: 'POST', headers: signed(payload), body: payload }).then(
          (answer) => res.writeHead(303, { location: String(session.success_url), 'x-webhook-status': String(answer.status) }).end(),
          (error: unknown) => res.writeHead(502, { 'content-type': 'text/plain' }).end(`The shop's webhook did not answer: ${String(error)}`),
        );
        return;
      }
      if (req.headers.authorization !== `Bearer ${STRIPE_TEST_KEY}`) {
        return json(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      // Expiring a session (paying later opens a new one): only an open session can be expired, as at Stripe.
      const expiring = req.method === 'POST' ? /^\/v1\/checkout\/sessions\/([\w]+)\/expire$/.exec(req.url ?? '') : null;
      if (expiring) {
        const session = sessions.get(expiring[1]!);
        if (!session) return json(404, { error: { type: 'invalid_request_error', message: `No such checkout.session: '${expiring[1]}'` } });
        if (session.status !== 'open')
          return json(400, { error: { type: 'invalid_request_error', message: `Only Checkout Sessions with a status in ["open"] can be expired.` } });
        session.status = 'expired';
        expired.push(session.id as string);
        return json(200, session);
      }
      if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
        return json(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url})` } });
      }
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      requests.push({ params, idempotencyKey, authorization: req.headers.authorization });
      if (control.failWith) return json(control.failWith, { error: { type: 'api_error', message: 'An unexpected error occurred (stand-in outage).' } });
      const existing = [...sessions.values()].find((s) => s.idempotency_key === idempotencyKey);
      if (existing) return json(200, existing);
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const session = {
        id,
        object: 'checkout.session',
        mode: params.mode,
        status: 'open',
        payment_status: 'unpaid',
        client_reference_id: params.client_reference_id ?? null,
        customer_email: params.customer_email ?? null,
        metadata: { orderCode: params['metadata[orderCode]'] },
        currency: params['line_items[0][price_data][currency]'],
        amount_total: Number(params['line_items[0][price_data][unit_amount]']) * Number(params['line_items[0][quantity]'] ?? 1),
        locale: params.locale ?? null,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        url: options.payPages ? `${url}/pay/${id}` : `https://checkout.stripe.com/c/pay/${id}`,
        livemode: false,
        idempotency_key: idempotencyKey,
      };
      sessions.set(id, session);
      return json(200, session);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Loaded here, not at the top: playwright.config.ts reads this file's constants (through
  // e2e-stripe.ts) in Playwright's own process, where server modules (`server-only`) cannot load.
  const { stripeCheckout } = await import('@/server/integrations/stripe');
  return {
    url,
    requests,
    sessions,
    expired,
    control,
    checkout: (publicBaseUrl = 'https://shop.example'): Checkout => stripeCheckout({ secretKey: STRIPE_TEST_KEY, apiBase: url, publicBaseUrl }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A Stripe event about a checkout session, shaped like the ones Stripe sends. */
export function checkoutEvent(
  type: 'checkout.session.completed' | 'checkout.session.async_payment_succeeded' | 'checkout.session.expired' | 'payment_intent.created',
  session: { code: string; amount: number; paymentStatus?: 'paid' | 'unpaid'; currency?: string; id?: string },
  eventId = `evt_${randomBytes(12).toString('hex')}`,
) {
  return {
    id: eventId,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: {
      object: {
        id: session.id ?? `cs_test_${randomBytes(8).toString('hex')}`,
        object: 'checkout.session',
        client_reference_id: session.code,
        metadata: { orderCode: session.code },
        amount_total: session.amount,
        currency: session.currency ?? 'usd',
        payment_status: session.paymentStatus ?? 'paid',
        status: 'complete',
      },
    },
  };
}

/** The headers of a webhook call signed the way Stripe signs, with the SDK's own test helper. */
export function signed(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp });
  return { 'content-type': 'application/json', 'stripe-signature': header };
}

/** POST /v1/orders as the server does it when STRIPE_SECRET_KEY is set, with this checkout. */
export async function postOrderWithCheckout(json: unknown, checkout: Checkout) {
  const { handleRest } = await import('@/server/api/rest');
  const { createContext } = await import('@/server/api/context');
  const request = new Request('http://shop.test/v1/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
  const response = await handleRest(request, () => createContext({ checkout }));
  return { status: response.status, body: (await response.json()) as any };
}
