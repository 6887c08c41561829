import 'server-only';

/**
 * The payment provider as the shop's money services use it (Stripe Checkout and Refunds in
 * production, src/server/integrations/stripe.ts; absent when none is configured). Narrow on
 * purpose: what the shop asks of Stripe, in the shop's words.
 */
export interface PaymentProvider {
  /**
   * Opens a Checkout session for what is paid at once: one order, or a basket of them (a line item
   * each). `attempt` tells a session for paying later from the first (and a retried call from a new
   * one): the provider's idempotency key is made from it.
   */
  open(payment: PaymentAsked): Promise<{ id: string; url: string }>;
  /**
   * Closes a session nobody paid into yet, so only the newest can take money. Answers how the
   * session stands afterwards: `expired` (closed now, or before), or `complete` (paid, or a bank
   * debit on its way: it can no longer be closed, and its payment will arrive).
   */
  expire(sessionId: string): Promise<'expired' | 'complete'>;
  /**
   * Gives money back on a payment (its PaymentIntent). `idempotencyKey` makes a repeated call give
   * back once; `metadata` travels with the refund, so its webhook can be matched to the order.
   */
  refund(request: { paymentIntent: string; amountCents: number; idempotencyKey: string; metadata: Record<string, string> }): Promise<ProviderRefund>;
  /** Every refund made on a payment, in Stripe's dashboard included. */
  refundsOf(paymentIntent: string): Promise<ProviderRefund[]>;
}

/** A refund as the provider reports it. */
export interface ProviderRefund {
  id: string;
  amountCents: number;
  /** Stripe's: pending, requires_action, succeeded, failed or canceled. */
  status: string;
  paymentIntent: string | null;
  metadata: Record<string, string>;
}

/** What one Checkout session is asked to take. */
export interface PaymentAsked {
  /** The order's code, or the basket's: the session's reference, which its webhook names. */
  code: string;
  /** Whether `code` is an order's or a basket's (it decides the page the customer comes back to). */
  of: 'order' | 'checkout';
  /** A line per order, named as the order page names it, with its total in cents. */
  lines: { name: string; amountCents: number }[];
  locale: string;
  email: string;
  attempt?: string;
}
