import 'server-only';
import type { Db } from '@/server/db/client';
import { DomainError, invalidInput } from '@/server/errors';
import { enqueue } from '@/server/jobs/outbox';
import { newOrderCode } from '@/server/orders/code';
import { noMatchingBasket } from '@/server/orders/payment';
import {
  checkOrder,
  CodeTaken,
  insertOrder,
  lookupOrder,
  openCheckout,
  sameEmail,
  withFreshCode,
  type CheckedOrder,
  type OrderViewSettings,
  type PlacedBy,
} from '@/server/orders/service';
import type { PaymentProvider } from '@/server/payments/provider';
import type { CheckoutCreated, CheckoutView, CreateCheckout } from '@/shared/checkout-schema';
import type { CreateOrder } from '@/shared/order-schema';
import { normalizeOrderCode } from '@/shared/orders';

/** The outbox event of the basket's one order-received e-mail (src/server/checkouts/mail.ts). */
export const CHECKOUT_RECEIVED_EVENT = 'shop/checkout.received';

/** Waiting for a pooled connection under load is the point, as for a single order (orders/service.ts). */
const takingBaskets = { maxWait: 20_000, timeout: 30_000 } as const;

/**
 * Takes a basket (`POST /v1/checkouts`, decisions.md "A basket"): every item is checked and priced
 * as an order would be before anything is written, then the basket and all its orders, their first
 * events and the one order-received e-mail commit together, or nothing does. The payment (one
 * Checkout session, a line item per order) is opened after commit, as for an order: when that
 * fails the orders stay pending and payable later, and checkoutUrl is null.
 */
export async function createCheckout(db: Db, input: CreateCheckout, payments?: PaymentProvider, placedBy?: PlacedBy): Promise<CheckoutCreated> {
  const orders: CreateOrder[] = input.items.map((item) => ({ ...item, customer: input.customer, locale: input.locale }) as CreateOrder);
  const checked: CheckedOrder[] = [];
  for (const [index, order] of orders.entries()) {
    try {
      checked.push(await checkOrder(db, order));
    } catch (error) {
      throw inItem(error, index);
    }
  }
  const totalCents = checked.reduce((sum, order) => sum + order.totalCents, 0);

  const basket = await withFreshCode((code) =>
    db.$transaction(async (tx) => {
      // A basket's code is never an order's: it is typed where an order's code could be.
      if (await tx.order.findUnique({ where: { code }, select: { id: true } })) throw new CodeTaken();
      const { id } = await tx.checkout.create({
        data: { code, customerEmail: input.customer.email, locale: input.locale, notes: input.notes ?? null, totalCents },
        select: { id: true },
      });
      const taken: { id: number; code: string; totalCents: number }[] = [];
      for (const [index, order] of orders.entries()) {
        // A clash with another code (one in 2^50: the basket's own included, insertOrder checks)
        // fails the transaction, and withFreshCode starts it again.
        const orderCode = newOrderCode();
        const { id: orderId } = await insertOrder(tx, order, checked[index]!, orderCode, { ...placedBy, checkoutId: id });
        taken.push({ id: orderId, code: orderCode, totalCents: checked[index]!.totalCents });
      }
      await enqueue(tx, CHECKOUT_RECEIVED_EVENT, { checkoutId: id, code });
      return { id, taken };
    }, takingBaskets),
  );

  const checkoutUrl = payments
    ? await openCheckout(
        db,
        payments,
        {
          code: basket.code,
          of: 'checkout',
          lines: checked.map((order) => ({ name: order.line, amountCents: order.totalCents })),
          locale: input.locale,
          email: input.customer.email,
        },
        basket.taken.map((order) => ({ orderId: order.id, amountCents: order.totalCents })),
      )
    : null;
  return { code: basket.code, total: totalCents, orders: basket.taken.map((order) => ({ code: order.code, total: order.totalCents })), checkoutUrl };
}

/**
 * An item's refusal names the item (`items[2].artworkSlug: …`): the basket is all or nothing, and
 * the customer must know which work to change.
 */
function inItem(error: unknown, index: number): unknown {
  if (!(error instanceof DomainError) || error.code !== 'invalid_input') return error;
  const field = error.details?.[0]?.path;
  const where = `items[${index}]${field ? `.${field}` : ''}`;
  return invalidInput(
    `${where}: ${error.message}`,
    (error.details ?? [{ path: '', message: error.message }]).map((detail) => ({ path: `items[${index}]${detail.path ? `.${detail.path}` : ''}`, message: detail.message })),
  );
}

/**
 * The basket as its customer may see it (`GET /v1/checkouts/{code}?email=`): each order as its own
 * lookup shows it. A wrong e-mail answers exactly like an unknown code.
 */
export async function lookupCheckout(db: Db, typedCode: string, typedEmail: string, settings: OrderViewSettings, now: Date = new Date()): Promise<CheckoutView> {
  const basket = await db.checkout.findUnique({
    where: { code: normalizeOrderCode(typedCode) },
    select: { code: true, customerEmail: true, totalCents: true, createdAt: true, orders: { orderBy: { id: 'asc' }, select: { code: true } } },
  });
  if (!basket || !sameEmail(basket.customerEmail, typedEmail)) throw noMatchingBasket();
  const orders = [];
  // Each order under the e-mail it carries (the basket's): an order's own lookup, as it would answer.
  for (const order of basket.orders) orders.push(await lookupOrder(db, order.code, basket.customerEmail, settings, now));
  return { code: basket.code, total: basket.totalCents, createdAt: basket.createdAt.toISOString(), orders };
}
