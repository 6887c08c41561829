import type { PaymentMode } from '@/shared/payment';

/**
 * What the terms and the privacy notice say of payment, for each way the shop takes it (issue #42,
 * item 1): they promise and name only what this shop, as configured, does.
 *
 * The items of the terms' §4 (`Legal.terms.sections.payment.list`) for each way the shop takes
 * payment, so the terms promise only what this shop, as configured, does; what happens to an unpaid
 * order holds for all.
 */
export const paymentTermItems: Record<PaymentMode, readonly string[]> = {
  online: ['card', 'unpaid'],
  both: ['card', 'transfer', 'unpaid'],
  transfer: ['transfer', 'unpaid'],
  instructions: ['instructions', 'unpaid'],
  email: ['email', 'unpaid'],
};

/** The paragraphs of the privacy notice's sections on payment and on sharing: Stripe is named only where it takes the payment. */
export const paymentPrivacyParts: Record<PaymentMode, { payment: readonly string[]; sharing: readonly string[] }> = {
  online: { payment: ['pCard'], sharing: ['p1', 'pCard'] },
  both: { payment: ['pCard', 'pTransfer'], sharing: ['p1', 'pCard'] },
  transfer: { payment: ['pTransfer'], sharing: ['p1'] },
  instructions: { payment: ['pTransfer'], sharing: ['p1'] },
  email: { payment: ['pTransfer'], sharing: ['p1'] },
};
