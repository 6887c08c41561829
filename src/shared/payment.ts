/** How a customer pays, as their order page and e-mails say it (decisions.md "Paying later"). */
export interface PaymentOptions {
  /** A payment provider is configured: a pending order can be paid online at any time. */
  online: boolean;
  /** Without one: how to pay (a bank transfer, say), with the order code as the reference. */
  instructions: string | null;
}

/** What the order forms say about paying: online, by the studio's instructions, or by the studio's e-mail. */
export type PaymentMode = 'online' | 'instructions' | 'email';

export const paymentModeOf = (options: PaymentOptions): PaymentMode => (options.online ? 'online' : options.instructions ? 'instructions' : 'email');

/**
 * Where an order's money stands (decisions.md "Payments and refunds"): one list for the contract,
 * the order page, the board and the staff order page.
 */
export const paymentStates = ['unpaid', 'processing', 'paid', 'partially_refunded', 'refunded'] as const;
export type PaymentState = (typeof paymentStates)[number];

/** The facts a payment state is read from: cents received and given back, and a payment on its way. */
export interface PaymentFacts {
  paid: number;
  refunded: number;
  processing: boolean;
}

export function paymentStateOf({ paid, refunded, processing }: PaymentFacts): PaymentState {
  if (paid > 0) return refunded >= paid ? 'refunded' : refunded > 0 ? 'partially_refunded' : 'paid';
  return processing ? 'processing' : 'unpaid';
}

/** How money goes back: through Stripe's Refunds API, or recorded while the studio pays it back itself. */
export const refundMethods = ['stripe', 'manual'] as const;
export type RefundMethod = (typeof refundMethods)[number];

/** Days an order cancelled unpaid keeps its photos (decisions.md "Payments and refunds"); the privacy notice says it. */
export const UNPAID_CANCELLED_RETENTION_DAYS = 7;
