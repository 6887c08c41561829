import 'server-only';
import type { Db } from '@/server/db/client';
import { invalidTransition } from '@/server/errors';
import { enqueue } from '@/server/jobs/outbox';
import type { OrderView, SketchDecision } from '@/shared/order-schema';
import { lookupOrder, noMatchingOrder, sameEmail, type OrderViewSettings } from './service';
import { lockingTransaction, lockOrder } from './lock';

/** Outbox event: the customer decided on a sketch (an e-mail to the studio). */
export const SKETCH_DECIDED_EVENT = 'shop/sketch.decided';

/**
 * The customer approves a sketch or asks for changes (`POST /v1/orders/{code}/sketch-decision`).
 * Only a custom order whose latest sketch waits for them can be decided on, once: under the
 * order's row lock the sketch status, an event with the decision and comment, and the studio's
 * e-mail commit together. A wrong code or e-mail answers exactly like the lookup.
 */
export async function decideOnSketch(db: Db, code: string, input: SketchDecision, settings: OrderViewSettings): Promise<OrderView> {
  await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, code);
    if (!order || !sameEmail(order.customerEmail, input.email)) throw noMatchingOrder();
    if (order.kind !== 'custom') throw invalidTransition('Only a custom painting has a sketch to decide on.');
    const sketches = await tx.orderPhoto.count({ where: { orderId: order.id, kind: 'sketch' } });
    if (sketches === 0) throw invalidTransition('The studio has not shown a sketch of this painting yet.');
    if (order.sketchStatus !== 'pending') throw invalidTransition('This sketch has been decided on already; the studio will show a new one if changes were asked for.');
    await tx.order.update({ where: { id: order.id }, data: { sketchStatus: input.decision } });
    await tx.orderEvent.create({
      data: { orderId: order.id, status: order.status, note: input.comment || null, actor: 'customer', sketchStatus: input.decision, at: new Date() },
    });
    await enqueue(tx, SKETCH_DECIDED_EVENT, { orderId: order.id, code: order.code });
  }, lockingTransaction);
  return lookupOrder(db, code, input.email, settings);
}
