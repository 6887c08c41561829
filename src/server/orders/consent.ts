import 'server-only';
import type { Db } from '@/server/db/client';
import { invalidTransition } from '@/server/errors';
import { logger } from '@/server/logger';
import { refreshGalleryPages } from '@/server/showcase/pages';
import type { OrderView, ShowcaseConsentChange } from '@/shared/order-schema';
import { lockingTransaction, lockOrder } from './lock';
import { lookupOrder, noMatchingOrder, sameEmail, type OrderViewSettings } from './service';

/**
 * The customer allows the studio to show their finished painting, or takes it back
 * (`POST /v1/orders/{code}/showcase-consent`), as often as they like: the order form's box, asked
 * again where it matters most, on the delivered order. Taking it back hides the painting at once
 * (the gallery shows only consented orders, and its pictures answer 404 for the rest) and the
 * retention sweep then deletes the finished photo like any other. A cancelled order has nothing to
 * show, so it can only take consent back. A wrong code or e-mail answers exactly like the lookup.
 */
export async function changeShowcaseConsent(db: Db, code: string, input: ShowcaseConsentChange, settings: OrderViewSettings): Promise<OrderView> {
  const changed = await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, code);
    if (!order || !sameEmail(order.customerEmail, input.email)) throw noMatchingOrder();
    if (input.consent && order.status === 'cancelled') throw invalidTransition('A cancelled order has no painting to show.');
    const { count } = await tx.order.updateMany({ where: { id: order.id, showcaseConsent: !input.consent }, data: { showcaseConsent: input.consent } });
    return count > 0;
  }, lockingTransaction);
  if (changed) {
    logger.info('order %s: the customer %s showing the finished painting', code, input.consent ? 'allowed' : 'withdrew permission for');
    await refreshGalleryPages();
  }
  return lookupOrder(db, code, input.email, settings);
}
