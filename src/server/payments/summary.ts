import 'server-only';
import type { Prisma } from '@/generated/prisma/client';
import { paymentStateOf, type PaymentState } from '@/shared/payment';

/** Refunds in these states gave (or are giving) money back; failed and canceled ones did not. */
export const countedRefundStates = ['pending', 'succeeded'] as const;

/** What an order's payment is read from, beside `orders.paid_cents`: one include for every view. */
export const paymentIncludes = {
  sessions: { where: { state: { in: ['processing', 'paid', 'refunded'] } }, select: { state: true, paymentIntent: true } },
  refunds: {
    where: { state: { in: [...countedRefundStates] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, amountCents: true, method: true, note: true, createdAt: true },
  },
  disputes: { select: { state: true, amountCents: true } },
} satisfies Prisma.OrderInclude;

type PaymentRows = { paidCents: number } & Prisma.OrderGetPayload<{ include: typeof paymentIncludes }>;

export interface PaymentSummary {
  state: PaymentState;
  /** Cents received for the order. */
  paid: number;
  /** Cents given back: refunds, and disputes lost. */
  refunded: number;
  /** A dispute is open: production is held. */
  disputed: boolean;
  /** A payment is on its way (a bank debit): no new payment is offered. */
  processing: boolean;
  /** Payments that arrived for an order paid already (or cancelled), each refunded in full at once. */
  doublePayments: number;
  /** The order's money came through Stripe: a refund goes back through Stripe's Refunds API. */
  paidThroughStripe: boolean;
  refunds: { id: string; amount: number; method: 'stripe' | 'manual'; note: string | null; at: string }[];
}

/**
 * An order's money, from its rows (decisions.md "Payments and refunds"). A double payment's
 * refund is left out of `paid` and `refunded`: they describe the order's own payment.
 */
export function paymentSummary(order: PaymentRows): PaymentSummary {
  const refunded =
    order.refunds.reduce((sum, refund) => sum + refund.amountCents, 0) +
    order.disputes.filter((dispute) => dispute.state === 'lost').reduce((sum, dispute) => sum + dispute.amountCents, 0);
  const processing = order.sessions.some((session) => session.state === 'processing');
  return {
    state: paymentStateOf({ paid: order.paidCents, refunded, processing }),
    paid: order.paidCents,
    refunded,
    disputed: order.disputes.some((dispute) => dispute.state === 'open'),
    processing,
    doublePayments: order.sessions.filter((session) => session.state === 'refunded').length,
    paidThroughStripe: order.sessions.some((session) => session.state === 'paid' && session.paymentIntent !== null),
    refunds: order.refunds.map((refund) => ({ id: refund.id, amount: refund.amountCents, method: refund.method, note: refund.note, at: refund.createdAt.toISOString() })),
  };
}
