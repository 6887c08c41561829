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
