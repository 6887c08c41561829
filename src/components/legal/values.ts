import type { ShopIdentity } from '@/server/shop/identity';

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
    sketchDays,
    shippingMin: shippingDays.min,
    shippingMax: shippingDays.max,
  };
}

export type LegalValues = ReturnType<typeof legalValues>;

/** Tags a string may wrap text in: links to the other pages, the studio's e-mail address (`mail`; not `email`, which is the address itself), Stripe's privacy policy, emphasis. */
export const legalTags = ['mail', 'about', 'shipping', 'returns', 'terms', 'privacy', 'imprint', 'orders', 'custom', 'stripe', 'strong'] as const;
export type LegalTag = (typeof legalTags)[number];

/**
 * Production times on the shipping page (working days to paint, days to dry before varnish and
 * shipping). The same figures as the delivery estimates of src/server/orders/delivery.ts: change
 * both together.
 */
export const leadTimes = [
  { size: '30x40', widthCm: 30, heightCm: 40, paintingDays: 7, dryingDays: 5 },
  { size: '50x70', widthCm: 50, heightCm: 70, paintingDays: 10, dryingDays: 5 },
  { size: '60x90', widthCm: 60, heightCm: 90, paintingDays: 12, dryingDays: 5 },
  { size: '90x120', widthCm: 90, heightCm: 120, paintingDays: 15, dryingDays: 7 },
] as const;
/** Working days a custom painting adds for the sketch and the customer's approval. */
export const sketchDays = 3;
/** Working days in transit, worldwide, tracked and insured. */
export const shippingDays = { min: 3, max: 7 } as const;
