import 'server-only';
import Stripe from 'stripe';
import { env, publicBaseUrl, type Env } from '@/server/env';
import { DomainError } from '@/server/errors';
import type { PaymentProvider, ProviderRefund } from '@/server/payments/provider';

export interface StripeSettings {
  secretKey: string;
  /** Another API address (a local stand-in in tests); unset: api.stripe.com. */
  apiBase?: string;
  /** Where the website is, for the return addresses after checkout. */
  publicBaseUrl: string;
}

/**
 * The API version the shop speaks, pinned to the SDK's own (the one its types describe): the
 * webhook endpoint in Stripe's dashboard must send events in this version (docs/deploy.md).
 */
export const STRIPE_API_VERSION = Stripe.API_VERSION;

/** The real Stripe SDK client, pointed at STRIPE_API_BASE when one is configured. */
export function stripeClient(settings: Pick<StripeSettings, 'secretKey' | 'apiBase'>): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
  return new Stripe(settings.secretKey, {
    ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'https:' ? 'https' : 'http' } : {}),
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 1,
    timeout: 15_000,
    telemetry: false,
  });
}

/** A refund as Stripe sends it, in the shop's words (provider.ts). */
export function providerRefund(refund: Stripe.Refund): ProviderRefund {
  return {
    id: refund.id,
    amountCents: refund.amount,
    status: refund.status ?? 'pending',
    paymentIntent: typeof refund.payment_intent === 'string' ? refund.payment_intent : (refund.payment_intent?.id ?? null),
    metadata: refund.metadata ?? {},
  };
}

/**
 * The shop's payments through Stripe: Checkout sessions for an order or a basket (a line item per
 * order with the server's total, the order's or the basket's code as client_reference_id and in
 * metadata, return addresses on the website's order or basket page in the order's language) and
 * refunds through the Refunds API. Every call that moves or offers money carries an idempotency
 * key, so a retried call does it once.
 */
export function stripePayments(settings: StripeSettings): PaymentProvider {
  const stripe = stripeClient(settings);
  return {
    async open(payment) {
      const page = `${settings.publicBaseUrl}/${payment.locale}/orders/${payment.of === 'checkout' ? 'basket/' : ''}${payment.code}`;
      const reference: Record<string, string> = payment.of === 'checkout' ? { checkoutCode: payment.code } : { orderCode: payment.code };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: payment.lines.map((line) => ({ quantity: 1, price_data: { currency: 'usd', unit_amount: line.amountCents, product_data: { name: line.name } } })),
          client_reference_id: payment.code,
          metadata: reference,
          payment_intent_data: { metadata: reference },
          customer_email: payment.email,
          locale: payment.locale as 'en',
          success_url: `${page}?checkout=success`,
          cancel_url: `${page}?checkout=cancelled`,
        },
        { idempotencyKey: payment.attempt ? `checkout-${payment.code}-${payment.attempt}` : `checkout-${payment.code}` },
      );
      if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a url`);
      return { id: session.id, url: session.url };
    },
    async expire(sessionId) {
      try {
        await stripe.checkout.sessions.expire(sessionId);
        return 'expired';
      } catch (error) {
        // Stripe refuses to expire a session that is not open. Which it is decides whether paying
        // again is safe: an expired one is, a complete one (paid, or a debit on its way) is not.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        const session = await stripe.checkout.sessions.retrieve(sessionId);
        return session.status === 'expired' ? 'expired' : 'complete';
      }
    },
    async refund(request) {
      const refund = await stripe.refunds.create(
        { payment_intent: request.paymentIntent, amount: request.amountCents, metadata: request.metadata },
        { idempotencyKey: request.idempotencyKey },
      );
      return providerRefund(refund);
    },
    async refundsOf(paymentIntent) {
      const refunds: ProviderRefund[] = [];
      for await (const refund of stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 })) refunds.push(providerRefund(refund));
      return refunds;
    },
  };
}

export function paymentsFor(e: Env): PaymentProvider | undefined {
  if (!e.STRIPE_SECRET_KEY) return undefined;
  return stripePayments({ secretKey: e.STRIPE_SECRET_KEY, apiBase: e.STRIPE_API_BASE, publicBaseUrl: publicBaseUrl(e) });
}

let configured: { payments: PaymentProvider | undefined } | undefined;

/** This server's payment provider, or undefined when none is configured. */
export function configuredPayments(): PaymentProvider | undefined {
  configured ??= { payments: paymentsFor(env()) };
  return configured.payments;
}

/** Stripe's own tolerance: a signature older than five minutes is refused (replay protection). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * A webhook call's event, after checking `Stripe-Signature` over the exact raw body with the
 * endpoint's secret. Anything that does not verify (no secret configured, no or malformed header,
 * another secret, a changed body, a stale timestamp) is 400 `invalid_signature`.
 */
export function verifyStripeEvent(rawBody: Buffer, signature: string | null, secret: string | undefined, nowSeconds?: number): Stripe.Event {
  if (!secret) throw new DomainError('invalid_signature', 'Webhook signatures cannot be verified: STRIPE_WEBHOOK_SECRET is not configured.');
  if (!signature) throw new DomainError('invalid_signature', 'The Stripe-Signature header is missing.');
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_SECONDS, undefined, nowSeconds);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new DomainError('invalid_signature', 'The Stripe-Signature header does not verify for this body.');
    }
    if (error instanceof SyntaxError) throw new DomainError('invalid_input', 'The webhook body is not valid JSON.');
    throw error;
  }
}
