/**
 * What an order is and how it moves (decisions.md "Orders"): its kinds, a custom painting's
 * styles and subjects, the status chain with the moves it allows, sketch decisions, photo kinds.
 * The order contracts (order-schema.ts), the server's status change (src/server/orders/status.ts),
 * the order page's timeline and the dashboard's next-step form all read these, and the database's
 * enums and CHECK constraints are held to them (tests/integration/shared-lists.test.ts).
 */

export const orderKinds = ['reproduction', 'custom'] as const;
export type OrderKind = (typeof orderKinds)[number];

/** The styles a custom painting is painted in; the style does not change the price. */
export const styles = ['classic', 'impressionist', 'modern', 'vangogh'] as const;
export type Style = (typeof styles)[number];

/** How many orders one basket (one payment) takes: `POST /v1/checkouts`, the account's basket, the browser's. */
export const MAX_CHECKOUT_ITEMS = 10;

/** How many people or animals a custom painting may show (the form, the contract and the database agree). */
export const subjectLimits = { min: 1, max: 8 } as const;

// ───────────── Statuses ─────────────

/** The production chain, in order: an order only moves forward along it (skipping is allowed). */
export const statusChain = ['pending', 'paid', 'sketching', 'painting', 'drying', 'shipped', 'delivered'] as const;
/** Every status: the chain, and `cancelled`, a way out of it rather than a step. */
export const orderStatuses = [...statusChain, 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** Nothing moves out of these. */
export const finalStatuses: readonly OrderStatus[] = ['delivered', 'cancelled'];
/** An order can be cancelled only before production starts. */
export const cancellableFrom: readonly OrderStatus[] = ['pending', 'paid'];
/** A tracking number goes only with these. */
export const trackedStatuses: readonly OrderStatus[] = ['shipped', 'delivered'];
/** From this step on, a custom painting's sketch counts as approved. */
export const paintingStarts: OrderStatus = 'painting';

/** Where a status stands in the chain (-1 for `cancelled`). */
export const chainIndex = (status: OrderStatus) => (statusChain as readonly OrderStatus[]).indexOf(status);

/**
 * Why an order in `from` may not move to `to`, in a sentence for staff; null when it may: forward
 * along the chain (skipping allowed), `cancelled` only from pending or paid, nothing out of
 * delivered or cancelled. The same status is always allowed (it records a note).
 */
export function moveRefusal(from: OrderStatus, to: OrderStatus): string | null {
  if (to === from) return null;
  if (finalStatuses.includes(from)) return `The order is ${from}; its status can no longer change.`;
  if (to === 'cancelled') return cancellableFrom.includes(from) ? null : `An order that is ${from} can no longer be cancelled.`;
  if (chainIndex(to) < chainIndex(from)) return `An order moves forward only: it is ${from} and cannot go back to ${to}.`;
  return null;
}

/** Every status an order in `from` may move to now (a note in the same status is not a move). */
export const allowedMoves = (from: OrderStatus): OrderStatus[] => orderStatuses.filter((to) => to !== from && moveRefusal(from, to) === null);

export const sketchStatuses = ['pending', 'approved', 'changes_requested'] as const;
export type SketchStatus = (typeof sketchStatuses)[number];
/** What the customer (or staff for them) can answer to a sketch. */
export const sketchDecisions = ['approved', 'changes_requested'] as const satisfies readonly SketchStatus[];

/** Who wrote an event on an order's history. */
export const eventActors = ['customer', 'staff', 'payment', 'system'] as const;
export type EventActor = (typeof eventActors)[number];

/** What a photo on an order shows: the customer's own, or the studio's sketch, progress or finished work. */
export const photoKinds = ['customer', 'sketch', 'progress', 'finished'] as const;
export type PhotoKind = (typeof photoKinds)[number];
/** The photos staff add to an order's timeline (the customer's own comes with the order). */
export const studioPhotoKinds = ['sketch', 'progress', 'finished'] as const satisfies readonly PhotoKind[];
export type StudioPhotoKind = (typeof studioPhotoKinds)[number];

/**
 * The photos the studio may add at a step (decisions.md "The sketch loop never misstates"): a
 * sketch asks the customer to decide, so only on a custom painting being sketched; progress and
 * finished photos show work, which a pending or cancelled order has none of.
 */
export function studioPhotoKindsAt(kind: OrderKind, status: OrderStatus): StudioPhotoKind[] {
  if (status === 'pending' || status === 'cancelled') return [];
  return kind === 'custom' && status === 'sketching' ? ['sketch', 'progress', 'finished'] : ['progress', 'finished'];
}

// ───────────── Order codes ─────────────

/**
 * What a customer typed, as the code it means: any letter case, and the look-alikes Crockford's
 * base32 folds (O → 0, I/L → 1). The server's lookups and the order page's form fold alike.
 */
export function normalizeOrderCode(typed: string): string {
  return typed.trim().toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
}
