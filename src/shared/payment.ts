/** The studio's bank account, as a customer needs it for a transfer (docs/shop.md "Payment"). */
export interface BankAccount {
  accountHolder: string;
  /** In electronic form (no spaces); shown in groups of four. */
  iban: string;
  bic: string | null;
  bankName: string | null;
}

/** How a customer pays, as their order page and e-mails say it (decisions.md "Paying later"). */
export interface PaymentOptions {
  /** A payment provider is configured: a pending order can be paid online at any time. */
  online: boolean;
  /** The studio's bank account, when it takes transfers (with or without online payment). */
  bankTransfer: BankAccount | null;
  /** The studio's note on paying: beside the bank details, or alone the way to pay when there is neither. */
  instructions: string | null;
  /** When the shop reminds and cancels an unpaid order (UNPAID_REMIND_DAYS, UNPAID_CANCEL_DAYS). */
  unpaid: UnpaidDays;
}

/** Days after its creation an unpaid order is reminded, and cancelled (the terms say 14). */
export interface UnpaidDays {
  remindDays: number;
  cancelDays: number;
}

const DAY_MS = 86_400_000;

/**
 * The last moment to pay an unpaid order before the shop cancels it: `cancelDays` after it was
 * placed or, when its reminder went out late, the whole gap between reminder and cancellation after
 * the reminder (src/server/payments/unpaid.ts keeps to the same).
 */
export function unpaidPayBy(order: { createdAt: Date; remindedAt: Date | null }, days: UnpaidDays): Date {
  const due = order.createdAt.getTime() + days.cancelDays * DAY_MS;
  return new Date(order.remindedAt ? Math.max(due, order.remindedAt.getTime() + (days.cancelDays - days.remindDays) * DAY_MS) : due);
}

/** What the shop, as configured, offers: card online, a bank transfer, both, the studio's own words, or its e-mail. */
export const paymentModes = ['online', 'both', 'transfer', 'instructions', 'email'] as const;
export type PaymentMode = (typeof paymentModes)[number];

export function paymentModeOf(options: Pick<PaymentOptions, 'online' | 'bankTransfer' | 'instructions'>): PaymentMode {
  if (options.online) return options.bankTransfer ? 'both' : 'online';
  return options.bankTransfer ? 'transfer' : options.instructions ? 'instructions' : 'email';
}

/** `DE89370400440532013000` → `DE89 3704 0044 0532 0130 00`, as banks print it. */
export const ibanInGroups = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ');

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
