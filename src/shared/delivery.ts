import type { Size } from './canvas';
import type { OrderKind, OrderStatus } from './orders';

/**
 * How long a painting takes, next to the price table (prices.ts): the one source of every
 * delivery date the shop promises, on the artwork and custom pages, the order page and the
 * order-received e-mail. Pure, so the browser computes the same dates the e-mail states.
 *
 * Painting, the sketch and shipping count working days (Monday to Friday, UTC); oil paint dries on
 * weekends too, so drying counts calendar days.
 */
export const deliveryTable = {
  /** Working days at the easel, by size. */
  paintingDays: { '30x40': 7, '50x70': 10, '60x90': 12, '90x120': 15 } satisfies Record<Size, number>,
  /** Custom paintings: the sketch, and the customer's time to approve it. */
  sketchDays: 3,
  /** Calendar days of drying and varnish before a painting may travel, by size. */
  dryingDays: { '30x40': 5, '50x70': 5, '60x90': 5, '90x120': 7 } satisfies Record<Size, number>,
  /** Working days from the studio to the door, tracked and insured, included in the price. */
  shippingDays: { min: 3, max: 7 },
} as const;

export type DeliveryTable = typeof deliveryTable;

export interface DeliveryWindow {
  /** Dates as `YYYY-MM-DD` (UTC): a day, not an instant. */
  earliest: string;
  latest: string;
}

const DAY = 86_400_000;
const startOfDay = (date: Date) => new Date(Math.floor(date.getTime() / DAY) * DAY);
const isWeekend = (date: Date) => date.getUTCDay() === 0 || date.getUTCDay() === 6;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** `days` working days after `from` (a Saturday or Sunday start counts from Monday). */
export function addWorkingDays(from: Date, days: number): Date {
  let date = startOfDay(from);
  let left = days;
  while (left > 0) {
    date = new Date(date.getTime() + DAY);
    if (!isWeekend(date)) left--;
  }
  return date;
}

const addDays = (from: Date, days: number) => new Date(startOfDay(from).getTime() + days * DAY);

/** The steps still ahead of an order in `status`, the current one included. */
const stepsAhead: Record<Exclude<OrderStatus, 'cancelled'>, readonly ('sketch' | 'painting' | 'drying' | 'shipping')[]> = {
  pending: ['sketch', 'painting', 'drying', 'shipping'],
  paid: ['sketch', 'painting', 'drying', 'shipping'],
  sketching: ['sketch', 'painting', 'drying', 'shipping'],
  painting: ['painting', 'drying', 'shipping'],
  drying: ['drying', 'shipping'],
  shipped: ['shipping'],
  delivered: [],
};

/**
 * When a painting arrives: for a new order placed on `since`, or for an order that reached
 * `status` on `since` (the order page moves its dates as the order moves). Null once delivered or
 * cancelled. A reproduction skips the sketch; each change the customer asked to a custom painting's
 * sketch (`sketchRevisions`) is a sketch more to draw and approve.
 */
export function deliveryWindow(
  order: { kind: OrderKind; size: Size; sketchRevisions?: number },
  since: Date,
  status: OrderStatus = 'pending',
  table: DeliveryTable = deliveryTable,
): DeliveryWindow | null {
  if (status === 'cancelled' || status === 'delivered') return null;
  let ready = startOfDay(since);
  for (const step of stepsAhead[status]) {
    if (step === 'sketch' && order.kind === 'custom') ready = addWorkingDays(ready, table.sketchDays * (1 + (order.sketchRevisions ?? 0)));
    if (step === 'painting') ready = addWorkingDays(ready, table.paintingDays[order.size]);
    if (step === 'drying') ready = addDays(ready, table.dryingDays[order.size]);
  }
  if (!stepsAhead[status].includes('shipping')) return null;
  return { earliest: isoDay(addWorkingDays(ready, table.shippingDays.min)), latest: isoDay(addWorkingDays(ready, table.shippingDays.max)) };
}

/**
 * When several paintings sent together (a basket) have all arrived: the latest of their windows,
 * the one whose last day is latest. Null when none has a window.
 */
export function latestWindow(windows: (DeliveryWindow | null)[]): DeliveryWindow | null {
  let latest: DeliveryWindow | null = null;
  for (const window of windows) if (window && (!latest || window.latest > latest.latest)) latest = window;
  return latest;
}
