import type { PaymentMode } from '@/shared/payment';

/**
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
