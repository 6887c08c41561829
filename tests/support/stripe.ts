import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { PaymentProvider } from '@/server/payments/provider';

export const STRIPE_TEST_KEY = 'sk_test_local_stand_in';
/** The webhook secret of the test run (tests/support/setup.ts configures it). */
export const WEBHOOK_SECRET = 'whsec_test_local_secret';

export interface CheckoutRequest {
  params: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

type StripeObject = Record<string, unknown> & { id: string };

/** The API version the shop pins: every event the stand-in makes is in it, as Stripe sends them. */
export const STRIPE_API_VERSION = Stripe.API_VERSION;

/** A Stripe event around `object`, shaped as Stripe sends it in the shop's API version. */
export function stripeEvent(type: string, object: Record<string, unknown>, eventId = `evt_${randomBytes(12).toString('hex')}`) {
  return {
    id: eventId,
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: { object: { ...object } },
  };
}
export type StripeEventBody = ReturnType<typeof stripeEvent>;

/**
 * A real HTTP server on 127.0.0.1 that answers the part of Stripe's API the shop uses, the way
 * Stripe does (form-encoded parameters in, Stripe's objects and errors out), so the real SDK runs
 * against it: Checkout sessions (create, retrieve, expire: only an open one), refunds (create with
 * an idempotency key, list by payment; more than is left, or a disputed charge, is refused as
 * Stripe refuses it). What a customer or a bank does at Stripe (paying, a debit failing, a refund
 * in the dashboard, a chargeback) is a method that changes the state and answers the events Stripe
 * would send, for the test to deliver late, twice or out of order. `failWith` answers like an
 * outage; `refundsFailWith` only for refunds.
 */
export async function startStripeServer(options: { port?: number; payPages?: { webhookUrl: string } } = {}) {
  const requests: CheckoutRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const charges = new Map<string, StripeObject & { payment_intent: string; amount: number; amount_refunded: number; disputed: boolean }>();
  const refunds = new Map<string, StripeObject & { amount: number; payment_intent: string; status: string; idempotency_key?: string }>();
  const disputes = new Map<string, StripeObject>();
  const expired: string[] = [];
  const control = { failWith: 0, refundsFailWith: 0 };
  let url = '';
  const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
  const chargeOf = (paymentIntent: string) => [...charges.values()].find((c) => c.payment_intent === paymentIntent);

  /** The customer pays a session: card (paid now) or a bank debit (`async`: completed, still unpaid). */
  function pay(sessionId: string, how: { async?: boolean } = {}) {
    const session = sessions.get(sessionId);
    if (!session || session.status !== 'open') throw new Error(`session ${sessionId} is not open`);
    const paymentIntent = newId('pi');
    const charge = {
      id: newId('ch'),
      object: 'charge',
      payment_intent: paymentIntent,
      amount: Number(session.amount_total),
      amount_refunded: 0,
      currency: session.currency,
      disputed: false,
      refunded: false,
    };
    charges.set(charge.id, charge);
    Object.assign(session, { status: 'complete', payment_status: how.async ? 'unpaid' : 'paid', payment_intent: paymentIntent });
    return stripeEvent('checkout.session.completed', session);
  }
  /** The bank debit of a session paid with `async` arrives, or fails. */
  function settle(sessionId: string, succeeded: boolean) {
    const session = sessions.get(sessionId)!;
    session.payment_status = succeeded ? 'paid' : 'unpaid';
    return stripeEvent(succeeded ? 'checkout.session.async_payment_succeeded' : 'checkout.session.async_payment_failed', session);
  }
  function makeRefund(paymentIntent: string, amount: number | undefined, metadata: Record<string, string>, idempotencyKey?: string) {
    const charge = chargeOf(paymentIntent);
    if (!charge)
      return { error: { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${paymentIntent}'` } } } };
    const left = charge.amount - charge.amount_refunded;
    const asked = amount ?? left;
    if (charge.disputed)
      return {
        error: {
          status: 400,
          body: { error: { type: 'invalid_request_error', code: 'charge_disputed', message: `Charge ${charge.id} has been charged back; cannot issue a refund.` } },
        },
      };
    if (asked > left || left === 0) {
      return {
        error: {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'amount_too_large',
              message: `Refund amount ($${asked / 100}) is greater than unrefunded amount on charge ($${left / 100})`,
            },
          },
        },
      };
    }
    const refund = {
      id: newId('re'),
      object: 'refund',
      amount: asked,
      charge: charge.id,
      currency: charge.currency,
      payment_intent: paymentIntent,
      status: 'succeeded',
      metadata,
      created: Math.floor(Date.now() / 1000),
      idempotency_key: idempotencyKey,
    };
    refunds.set(refund.id, refund);
    charge.amount_refunded += asked;
    charge.refunded = charge.amount_refunded >= charge.amount;
    return { refund };
  }
  /** A refund made in Stripe's dashboard: the events Stripe sends for it (refund.created, then charge.refunded). */
  function refundInDashboard(paymentIntent: string, amount?: number) {
    const made = makeRefund(paymentIntent, amount, {});
    if (!made.refund) throw new Error(JSON.stringify(made.error));
    const { idempotency_key: _, ...refund } = made.refund;
    const { disputed: __, ...charge } = chargeOf(paymentIntent)!;
    return { refund, events: [stripeEvent('refund.created', refund), stripeEvent('charge.refunded', charge)] };
  }
  /** A refund Stripe reports as failed after it succeeded (the customer's card was closed, say). */
  function failRefund(refundId: string) {
    const refund = refunds.get(refundId)!;
    refund.status = 'failed';
    chargeOf(refund.payment_intent)!.amount_refunded -= refund.amount;
    const { idempotency_key: _, ...shown } = refund;
    return stripeEvent('refund.updated', shown);
  }
  /** The customer's bank disputes a payment; `close` settles it. */
  function dispute(paymentIntent: string) {
    const charge = chargeOf(paymentIntent)!;
    charge.disputed = true;
    const made = {
      id: newId('dp'),
      object: 'dispute',
      amount: charge.amount - charge.amount_refunded,
      charge: charge.id,
      payment_intent: paymentIntent,
      currency: charge.currency,
      status: 'needs_response',
      reason: 'fraudulent',
      metadata: {},
    };
    disputes.set(made.id, made);
    return { dispute: made, event: stripeEvent('charge.dispute.created', made) };
  }
  function closeDispute(disputeId: string, status: 'won' | 'lost' | 'warning_closed') {
    const made = disputes.get(disputeId)!;
    made.status = status;
    chargeOf(String(made.payment_intent))!.disputed = false;
    return stripeEvent('charge.dispute.closed', made);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` }).end(JSON.stringify(body));
      const route = new URL(req.url ?? '/', 'http://stand-in');
      // Stripe's hosted checkout page, for the browser tests: a "Pay" button that completes the
      // session the way Stripe does, by a signed checkout.session.completed to the shop's webhook,
      // then returns the browser to the session's success address.
      const paying = options.payPages ? /^\/pay\/(cs_test_\w+)$/.exec(route.pathname) : null;
      if (paying) {
        const session = sessions.get(paying[1]!);
        if (!session || session.status !== 'open') return res.writeHead(410, { 'content-type': 'text/plain' }).end('This checkout session has expired.');
        if (req.method === 'GET') {
          return res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(`<!doctype html><title>Stripe stand-in</title><h1>Pay ${Number(session.amount_total) / 100} USD</h1><form method="post"><button>Pay</button></form>`);
        }
        const payload = JSON.stringify(pay(String(session.id)));
        void fetch(options.payPages!.webhookUrl, { method: 'POST', headers: signed(payload), body: payload }).then(
          (answer) => res.writeHead(303, { location: String(session.success_url), 'x-webhook-status': String(answer.status) }).end(),
          (error: unknown) => res.writeHead(502, { 'content-type': 'text/plain' }).end(`The shop's webhook did not answer: ${String(error)}`),
        );
        return;
      }
      if (req.headers.authorization !== `Bearer ${STRIPE_TEST_KEY}`) {
        return json(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      const outage = () => json(control.failWith, { error: { type: 'api_error', message: 'An unexpected error occurred (stand-in outage).' } });

      if (route.pathname === '/v1/refunds') {
        if (control.refundsFailWith || control.failWith)
          return json(control.refundsFailWith || control.failWith, { error: { type: 'api_error', message: 'An unexpected error occurred (stand-in outage).' } });
        if (req.method === 'GET') {
          const paymentIntent = route.searchParams.get('payment_intent');
          const data = [...refunds.values()].filter((r) => r.payment_intent === paymentIntent).map(({ idempotency_key: _, ...r }) => r);
          return json(200, { object: 'list', data, has_more: false, url: '/v1/refunds' });
        }
        const again = idempotencyKey ? [...refunds.values()].find((r) => r.idempotency_key === idempotencyKey) : undefined;
        if (again) return json(200, { ...again, idempotency_key: undefined });
        const metadata = Object.fromEntries(Object.entries(params).flatMap(([key, value]) => (key.startsWith('metadata[') ? [[key.slice(9, -1), value]] : [])));
        const made = makeRefund(params.payment_intent ?? '', params.amount === undefined ? undefined : Number(params.amount), metadata, idempotencyKey);
        if (made.error) return json(made.error.status, made.error.body);
        return json(200, { ...made.refund, idempotency_key: undefined });
      }
      const sessionPath = /^\/v1\/checkout\/sessions\/(\w+)(\/expire)?$/.exec(route.pathname);
      if (sessionPath) {
        if (control.failWith) return outage();
        const session = sessions.get(sessionPath[1]!);
        if (!session) return json(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${sessionPath[1]}'` } });
        if (!sessionPath[2]) return json(200, session);
        // Expiring a session (paying later opens a new one): only an open session can be expired, as at Stripe.
        if (session.status !== 'open')
          return json(400, { error: { type: 'invalid_request_error', message: `Only Checkout Sessions with a status in ["open"] can be expired.` } });
        session.status = 'expired';
        expired.push(session.id as string);
        return json(200, session);
      }
      if (req.method !== 'POST' || route.pathname !== '/v1/checkout/sessions') {
        return json(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url})` } });
      }
      requests.push({ params, idempotencyKey, authorization: req.headers.authorization });
      if (control.failWith) return outage();
      const existing = [...sessions.values()].find((s) => s.idempotency_key === idempotencyKey);
      if (existing) return json(200, existing);
      const id = newId('cs');
      let amount = 0;
      for (let i = 0; params[`line_items[${i}][price_data][unit_amount]`] !== undefined; i++) {
        amount += Number(params[`line_items[${i}][price_data][unit_amount]`]) * Number(params[`line_items[${i}][quantity]`] ?? 1);
      }
      const session = {
        id,
        object: 'checkout.session',
        mode: params.mode,
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        client_reference_id: params.client_reference_id ?? null,
        customer_email: params.customer_email ?? null,
        metadata: { orderCode: params['metadata[orderCode]'] },
        currency: params['line_items[0][price_data][currency]'],
        amount_total: amount,
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
  const { stripePayments } = await import('@/server/integrations/stripe');
  return {
    url,
    requests,
    sessions,
    refunds,
    expired,
    control,
    pay,
    settle,
    refundInDashboard,
    failRefund,
    dispute,
    closeDispute,
    payments: (publicBaseUrl = 'https://shop.example'): PaymentProvider => stripePayments({ secretKey: STRIPE_TEST_KEY, apiBase: url, publicBaseUrl }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type StripeStandIn = Awaited<ReturnType<typeof startStripeServer>>;

/** A Stripe event about a checkout session no stand-in opened, shaped like the ones Stripe sends. */
export function checkoutEvent(
  type: 'checkout.session.completed' | 'checkout.session.async_payment_succeeded' | 'checkout.session.expired' | 'payment_intent.created',
  session: { code: string; amount: number; paymentStatus?: 'paid' | 'unpaid'; currency?: string; id?: string },
  eventId?: string,
) {
  return stripeEvent(
    type,
    {
      id: session.id ?? `cs_test_${randomBytes(8).toString('hex')}`,
      object: 'checkout.session',
      client_reference_id: session.code,
      metadata: { orderCode: session.code },
      amount_total: session.amount,
      currency: session.currency ?? 'usd',
      payment_status: session.paymentStatus ?? 'paid',
      payment_intent: null,
      status: 'complete',
    },
    eventId,
  );
}

/** The headers of a webhook call signed the way Stripe signs, with the SDK's own test helper. */
export function signed(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp });
  return { 'content-type': 'application/json', 'stripe-signature': header };
}

/** POST /v1/orders as the server does it when STRIPE_SECRET_KEY is set, with this payment provider. */
export async function postOrderWithCheckout(json: unknown, payments: PaymentProvider) {
  const { handleRest } = await import('@/server/api/rest');
  const { createContext } = await import('@/server/api/context');
  const request = new Request('http://shop.test/v1/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
  const response = await handleRest(request, () => createContext({ payments }));
  return { status: response.status, body: (await response.json()) as any };
}

/** Delivers a Stripe event to the shop's webhook, signed, through a server configured with `payments`. */
export async function deliver(event: unknown, payments?: PaymentProvider) {
  const { handleRest } = await import('@/server/api/rest');
  const { createContext } = await import('@/server/api/context');
  const payload = JSON.stringify(event);
  const request = new Request('http://shop.test/v1/payments/stripe-webhook', { method: 'POST', headers: signed(payload), body: payload });
  const response = await handleRest(request, ({ req }) => createContext({ req, payments }));
  return { status: response.status, body: (await response.json()) as any };
}
