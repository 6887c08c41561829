import type { Locale } from '@/shared/locales';
import { deliveryTable, type DeliveryTable } from '@/shared/delivery';
import { pagePath, pageUrl } from '@/shared/paths';
import { cheapestReproduction, prices as priceTable, type Prices } from '@/shared/prices';
import type { ShopIdentity } from '@/server/shop/identity';

/**
 * The schema.org nodes that say what the shop sells and on what terms, built from the same tables
 * the pages show (prices.ts, delivery.ts) and pointing at the pages that explain them, so search
 * engines read the price range, the delivery time and the return policy a shopper reads.
 */

type Node = Record<string, unknown>;
const days = (minValue: number, maxValue: number): Node => ({ '@type': 'QuantitativeValue', minValue, maxValue, unitCode: 'DAY' });

/** The organisation's node id on this deployment: the home page defines it, other nodes point at it. */
export const organizationId = (base: string) => `${base}/#organization`;

/**
 * How a painting reaches the shopper: shipping is in the price (a rate of 0), handling is the time
 * at the easel and drying (working days; drying counts calendar days, so its working days are at
 * most as many: the maximum stays an upper bound), transit the carrier's working days.
 */
export function shippingDetails(table: DeliveryTable = deliveryTable): Node {
  const painting = Object.values(table.paintingDays);
  const ready = Object.entries(table.paintingDays).map(([size, d]) => d + table.dryingDays[size as keyof DeliveryTable['dryingDays']]);
  return {
    '@type': 'OfferShippingDetails',
    shippingRate: { '@type': 'MonetaryAmount', value: 0, currency: 'USD' },
    deliveryTime: {
      '@type': 'ShippingDeliveryTime',
      handlingTime: days(Math.min(...painting), Math.max(...ready)),
      transitTime: days(table.shippingDays.min, table.shippingDays.max),
    },
  };
}

/**
 * The returns page's terms for a reproduction: 14 days from delivery to withdraw, returned by post
 * at the customer's cost, refunded in full. (A custom painting is made to order and has no right of
 * withdrawal; it has no Offer of its own in the catalog's pages.)
 */
export function returnPolicy(base: string, locale: Locale): Node {
  return {
    '@type': 'MerchantReturnPolicy',
    returnPolicyCategory: 'https://schema.org/MerchantReturnFiniteReturnWindow',
    merchantReturnDays: 14,
    returnMethod: 'https://schema.org/ReturnByMail',
    returnFees: 'https://schema.org/ReturnFeesCustomerResponsibility',
    refundType: 'https://schema.org/FullRefund',
    merchantReturnLink: pageUrl(base, locale, pagePath.returns()),
  };
}

/**
 * A reproduction's offer: every size and finish the page lets a shopper choose, from the cheapest
 * (what the page's "from" price says) to the dearest, with shipping and returns.
 */
export function reproductionOffer({
  url,
  base,
  locale,
  shop,
  table = priceTable,
}: {
  url: string;
  base: string;
  locale: Locale;
  /** The name the shop trades under (SHOP_NAME). */
  shop: string;
  table?: Pick<Prices, 'reproduction'>;
}): Node {
  const all = Object.values(table.reproduction).flatMap((byFrame) => Object.values(byFrame));
  const usd = (cents: number) => (cents / 100).toFixed(2);
  return {
    '@type': 'AggregateOffer',
    url,
    lowPrice: usd(cheapestReproduction(table).cents),
    highPrice: usd(Math.max(...all)),
    offerCount: all.length,
    priceCurrency: 'USD',
    availability: 'https://schema.org/InStock',
    itemCondition: 'https://schema.org/NewCondition',
    seller: { '@type': 'Organization', '@id': organizationId(base), name: shop },
    shippingDetails: shippingDetails(),
    hasMerchantReturnPolicy: returnPolicy(base, locale),
  };
}

type Identity = Pick<ShopIdentity, 'name' | 'legalName' | 'email' | 'address' | 'phone' | 'vatId' | 'demo'>;

/**
 * The shop as an organisation, with its return policy: its legal details only when the operator
 * set them, never a demonstration's examples.
 */
export function shopOrganization({ base, locale, identity }: { base: string; locale: Locale; identity: Identity }): Node {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': organizationId(base),
    name: identity.name,
    url: pageUrl(base, locale, pagePath.home()),
    logo: `${base}/favicon.svg`,
    ...(identity.demo
      ? {}
      : {
          legalName: identity.legalName,
          email: identity.email,
          address: identity.address.join(', '),
          ...(identity.phone ? { telephone: identity.phone } : {}),
          ...(identity.vatId ? { vatID: identity.vatId } : {}),
        }),
    hasMerchantReturnPolicy: returnPolicy(base, locale),
  };
}

/** The home page's nodes: the organisation, and the website in this language with the search its home page offers. */
export function shopNodes({ base, locale, identity }: { base: string; locale: Locale; identity: Identity }): Node[] {
  return [
    shopOrganization({ base, locale, identity }),
    {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: identity.name,
      url: pageUrl(base, locale, pagePath.home()),
      inLanguage: locale,
      publisher: { '@id': organizationId(base) },
      potentialAction: {
        '@type': 'SearchAction',
        target: { '@type': 'EntryPoint', urlTemplate: `${pageUrl(base, locale, pagePath.artworks())}?q={search_term_string}` },
        'query-input': 'required name=search_term_string',
      },
    },
  ];
}
