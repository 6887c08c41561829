import 'server-only';
import type { Db, Tx } from '@/server/db/client';
import { DomainError, invalidInput, invalidTransition, notFound } from '@/server/errors';
import { enqueue } from '@/server/jobs/outbox';
import type { Carrier } from '@/shared/carriers';
import { chainIndex, moveRefusal, paintingStarts, trackedStatuses, type EventActor, type OrderStatus, type SketchStatus } from '@/shared/orders';
import { lockingTransaction, lockOrder, type LockedOrder } from './lock';
import { staffOrderDetail } from './staff';

/** Who changes an order's status: staff, the payment webhook, or the shop itself. */
export type Actor = Exclude<EventActor, 'customer'>;

/** Reaching these statuses sends the customer an e-mail (through the outbox). */
export const mailOnStatus: Partial<Record<OrderStatus, string>> = {
  paid: 'shop/order.paid',
  shipped: 'shop/order.shipped',
  delivered: 'shop/order.delivered',
};

/** A status change as the services take it (the body of StatusChange, already validated). */
export interface Change {
  status: OrderStatus;
  note?: string;
  trackingNumber?: string;
  /** Absent: unchanged; null: a carrier not on the list (the number stays unlinked). */
  carrier?: Carrier | null;
  sketchStatus?: SketchStatus;
}

/**
 * What a change does to an order, by the rules of decisions.md "Orders" and "The sketch loop never
 * misstates": the moves of the shared status chain (`moveRefusal`, src/shared/orders.ts), the same
 * status records a note; tracking numbers only with shipped/delivered; sketch status only on custom
 * orders, set by staff at `sketching`, or `approved` with the move that starts painting (a customer's
 * yes given by phone). Painting never starts over the customer's request for changes unless the
 * same change records their approval; a sketch still pending counts as approved once painting starts.
 */
export function planTransition(order: Pick<LockedOrder, 'kind' | 'status' | 'sketchStatus' | 'disputed' | 'trackingNumber'>, change: Change) {
  const { status: from } = order;
  const to = change.status;
  if (order.disputed && to !== 'cancelled' && to !== from && !moveRefusal(from, to)) {
    throw new DomainError('order_disputed', 'A payment dispute is open on this order: it moves on once the dispute closes (or is cancelled).');
  }
  if (change.trackingNumber !== undefined && !trackedStatuses.includes(to)) {
    throw invalidInput('A tracking number goes only with status shipped or delivered.', [{ path: 'trackingNumber', message: 'only with shipped or delivered' }]);
  }
  if (change.carrier !== undefined && !trackedStatuses.includes(to)) {
    throw invalidInput('A carrier goes only with status shipped or delivered.', [{ path: 'carrier', message: 'only with shipped or delivered' }]);
  }
  if (change.carrier && !(change.trackingNumber ?? order.trackingNumber)) {
    throw invalidInput('A carrier goes with the tracking number it links to: give the number too.', [{ path: 'carrier', message: 'needs a tracking number' }]);
  }
  if (change.sketchStatus !== undefined && order.kind !== 'custom') {
    throw invalidInput('Only custom paintings have a sketch to approve.', [{ path: 'sketchStatus', message: 'only for custom orders' }]);
  }
  const painting = to !== 'cancelled' && chainIndex(to) >= chainIndex(paintingStarts);
  if (change.sketchStatus !== undefined && to !== 'sketching' && !(painting && change.sketchStatus === 'approved')) {
    throw invalidInput('sketchStatus is set together with status sketching, or as approved with the move to painting or later.', [
      { path: 'sketchStatus', message: 'only with status sketching, or approved with painting or later' },
    ]);
  }
  const refusal = moveRefusal(from, to);
  if (refusal) throw invalidTransition(refusal);
  if (order.kind === 'custom' && painting && order.sketchStatus === 'changes_requested' && change.sketchStatus !== 'approved') {
    throw invalidTransition(
      'The customer asked for changes to the sketch: show them a new sketch, or record their approval (sketchStatus approved) with this move if they gave it another way.',
    );
  }

  let sketchStatus = order.sketchStatus;
  if (order.kind === 'custom') {
    if (to === 'sketching') sketchStatus = change.sketchStatus ?? (from === 'sketching' ? order.sketchStatus : 'pending');
    else if (painting) sketchStatus = 'approved';
  }
  return { status: to, sketchStatus, changed: to !== from, mail: to !== from ? mailOnStatus[to] : undefined };
}

/**
 * Applies a change to a locked order inside the caller's transaction: the order row, its event and
 * the e-mail's outbox event commit together or not at all. Staff and the payment webhook both come here.
 */
export async function applyTransition(tx: Tx, order: LockedOrder, change: Change, actor: Actor): Promise<void> {
  const plan = planTransition(order, change);
  const trackingNumber = change.trackingNumber ?? order.trackingNumber;
  const carrier = change.carrier === undefined ? order.carrier : change.carrier;
  // Moving a pending order on is staff recording that its money arrived (a bank transfer); the
  // webhook sets the amount itself before it moves the order.
  const paidCents = order.status === 'pending' && plan.changed && plan.status !== 'cancelled' && order.paidCents === 0 ? order.totalCents : order.paidCents;
  await tx.order.update({
    where: { id: order.id },
    data: { status: plan.status, sketchStatus: plan.sketchStatus, trackingNumber, carrier, paidCents },
  });
  await tx.orderEvent.create({
    data: {
      orderId: order.id,
      status: plan.status,
      note: change.note ?? null,
      actor,
      at: new Date(),
      // A decision staff record (given by phone, say) is on the timelines as the studio's record (the
      // event's actor), never as the customer's click; a sketch waits for the customer only once a
      // sketch photo is shown (photos.ts).
      sketchStatus: change.sketchStatus && change.sketchStatus !== 'pending' && change.sketchStatus !== order.sketchStatus ? change.sketchStatus : null,
    },
  });
  if (plan.mail) await enqueue(tx, plan.mail, { orderId: order.id, code: order.code, ...(trackingNumber ? { trackingNumber } : {}), ...(carrier ? { carrier } : {}) });
  // A cancelled order's open Checkout sessions are closed after commit, so nobody pays into them
  // (a payment that came anyway would be refunded, and Stripe keeps its fee).
  if (plan.changed && plan.status === 'cancelled' && (await tx.paymentSession.count({ where: { orderId: order.id, state: 'open' } })) > 0) {
    await enqueue(tx, CLOSE_CHECKOUTS_EVENT, { orderId: order.id, code: order.code });
  }
}

/** The outbox event that closes a cancelled order's open Checkout sessions (src/server/payments/sessions.ts). */
export const CLOSE_CHECKOUTS_EVENT = 'shop/order.close-checkouts';

/** A staff status change (`POST /v1/admin/orders/{code}/status`); answers the order as staff see it. */
export async function changeOrderStatus(db: Db, code: string, change: Change, actor: Actor = 'staff') {
  const id = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, code);
    if (!order) throw notFound('No order has this code.');
    await applyTransition(tx, order, change, actor);
    return order.id;
  }, lockingTransaction);
  return staffOrderDetail(db, id);
}
