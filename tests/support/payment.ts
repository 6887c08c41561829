import type { PaymentOptions } from '@/shared/payment';

/** How the shop takes payment, as a test sets it: no provider, no bank, no note, the default 7 and 14 days, unless told. */
export const paying = (options: Partial<PaymentOptions> = {}): PaymentOptions => ({
  online: false,
  bankTransfer: null,
  instructions: null,
  unpaid: { remindDays: 7, cancelDays: 14 },
  ...options,
});
