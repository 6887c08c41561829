import type { ShopIdentity } from '@/server/shop/identity';
import { sidesOf, sizes } from '@/shared/canvas';
import { deliveryTable } from '@/shared/delivery';
import { UNPAID_CANCELLED_RETENTION_DAYS } from '@/shared/payment';

/**
 * What the shop's information pages (messages `Legal.<page>`) may use in their strings: these
 * arguments, and these tags for links and emphasis. The pages and tests/unit/legal-pages.test.ts
 * both format with them, so a string that asks for anything else fails the test, not a shopper.
 */
export function legalValues(identity: ShopIdentity) {
  return {
    shopName: identity.name,
    legalName: identity.legalName,
    email: identity.email,
    responsible: identity.responsible,
    /** The address on one line, for a sentence ("Our studio is at …"). */
    address: identity.address.join(', '),
    retentionDays: identity.photoRetentionDays,
    remindDays: identity.unpaidRemindDays,
    cancelDays: identity.unpaidCancelDays,
    unpaidPhotoDays: UNPAID_CANCELLED_RETENTION_DAYS,
    sketchDays,
    shippingMin: shippingDays.min,
    shippingMax: shippingDays.max,
  };
}

export type LegalValues = ReturnType<typeof legalValues>;

/** Tags a string may wrap text in: links to the other pages, the studio's e-mail address (`mail`; not `email`, which is the address itself), Stripe's privacy policy, emphasis. */
export const legalTags = ['mail', 'about', 'shipping', 'returns', 'terms', 'privacy', 'imprint', 'orders', 'custom', 'stripe', 'strong'] as const;
export type LegalTag = (typeof legalTags)[number];

/** Production times on the shipping page: the delivery-estimate table itself (src/shared/delivery.ts), so the page promises what the estimates compute. */
export const leadTimes = sizes.map((size) => {
  const { shortCm, longCm } = sidesOf(size);
  return { size, widthCm: shortCm, heightCm: longCm, paintingDays: deliveryTable.paintingDays[size], dryingDays: deliveryTable.dryingDays[size] };
});
const { sketchDays, shippingDays } = deliveryTable;
