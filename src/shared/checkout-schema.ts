import { z } from '@/shared/zod';
import { locales } from './locales';
import { MAX_CHECKOUT_ITEMS } from './orders';
import { CreateCustomOrder, CreateReproductionOrder, Customer, OrderView } from './order-schema';

/**
 * The basket's contracts (decisions.md "A basket: several works, one payment"): several works
 * ordered and paid at once. Each item becomes an ordinary order; the basket ("checkout") is what
 * they are paid through. Browser-safe: the basket page checks with them.
 */

/** An item: CreateOrder's fields less `customer` and `locale`, which the basket gives all of them. */
export const CheckoutItem = z
  .discriminatedUnion('kind', [CreateReproductionOrder.omit({ customer: true, locale: true }), CreateCustomOrder.omit({ customer: true, locale: true })])
  .meta({ id: 'CheckoutItem' });
export type CheckoutItem = z.output<typeof CheckoutItem>;

export const CreateCheckout = z
  .object({
    items: z
      .array(CheckoutItem)
      .min(1)
      .max(MAX_CHECKOUT_ITEMS)
      .describe(`1 to ${MAX_CHECKOUT_ITEMS} works; all are ordered, or none (the message names the item at fault). One uploadId in two items is refused`),
    customer: Customer,
    locale: z.enum(locales).default('en'),
    notes: z.string().max(2000).optional().describe('A word for the studio about the whole basket (each item may carry its own notes)'),
  })
  .superRefine((basket, context) => {
    // One photo, one painting: the same upload twice would fail at the second order anyway, and
    // all or nothing means saying so before anything is created.
    const seen = new Map<string, number>();
    basket.items.forEach((item, index) => {
      if (item.kind !== 'custom') return;
      const first = seen.get(item.uploadId);
      if (first === undefined) seen.set(item.uploadId, index);
      else context.addIssue({ code: 'custom', path: ['items', index, 'uploadId'], message: `the same photo as items[${first}]: one photo makes one painting` });
    });
  })
  .meta({ id: 'CreateCheckout' });
export type CreateCheckout = z.output<typeof CreateCheckout>;

export const CheckoutCreated = z
  .object({
    code: z.string().describe("The basket's code: the payment reference of a bank transfer, and the address of its page. Never an order's code"),
    total: z.int().describe("Integer US cents: the sum of the orders' totals"),
    orders: z.array(z.object({ code: z.string(), total: z.int() })).describe("One per item, in the items' order"),
    checkoutUrl: z.string().nullable().describe('Where the whole basket is paid (one Stripe Checkout session); null when no payment provider is configured'),
  })
  .meta({ id: 'CheckoutCreated' });
export type CheckoutCreated = z.output<typeof CheckoutCreated>;

export const CheckoutView = z
  .object({
    code: z.string(),
    total: z.int().describe('Integer US cents'),
    createdAt: z.iso.datetime(),
    orders: z.array(OrderView).describe("The basket's orders, in the items' order, each as its own lookup shows it"),
  })
  .meta({ id: 'Checkout' });
export type CheckoutView = z.output<typeof CheckoutView>;
