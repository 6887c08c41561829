import { describe, expect, test } from 'vitest';
import { reproductionOffer, returnPolicy, shippingDetails, shopNodes, shopOrganization } from '@/lib/structured-data';
import { demoIdentity } from '@/server/shop/identity';
import { deliveryTable } from '@/shared/delivery';
import { prices } from '@/shared/prices';

/**
 * issue 43, "Outside validators agree": the Offer says every price a shopper can choose (not only
 * the lowest), with shipping and returns as the shipping and returns pages state them, and the home
 * page names the shop and its search.
 */
const base = 'https://shop.test';

describe("a reproduction's offer", () => {
  const offer = reproductionOffer({ url: `${base}/de/artworks/mona-lisa`, base, locale: 'de', shop: 'Atelier Prints' });

  test('spans the price table, from the rolled 30×40 to the framed 90×120', () => {
    expect(offer).toMatchObject({ '@type': 'AggregateOffer', lowPrice: '129.00', highPrice: '688.00', offerCount: 12, priceCurrency: 'USD' });
    // The table is the source: a dearer frame moves the high price.
    const dearer = structuredClone(prices);
    dearer.reproduction['90x120'].framed += 100;
    expect(reproductionOffer({ url: '', base, locale: 'en', shop: 'x', table: dearer }).highPrice).toBe('689.00');
  });

  test('ships for nothing extra, painted and dried first, then 3 to 7 working days on the road', () => {
    expect(offer.shippingDetails).toEqual(shippingDetails());
    expect(shippingDetails()).toMatchObject({
      shippingRate: { value: 0, currency: 'USD' },
      deliveryTime: {
        handlingTime: { minValue: deliveryTable.paintingDays['30x40'], maxValue: deliveryTable.paintingDays['90x120'] + deliveryTable.dryingDays['90x120'], unitCode: 'DAY' },
        transitTime: { minValue: 3, maxValue: 7, unitCode: 'DAY' },
      },
    });
  });

  test("returns as the returns page says, linked in the page's language", () => {
    expect(offer.hasMerchantReturnPolicy).toEqual({
      '@type': 'MerchantReturnPolicy',
      returnPolicyCategory: 'https://schema.org/MerchantReturnFiniteReturnWindow',
      merchantReturnDays: 14,
      returnMethod: 'https://schema.org/ReturnByMail',
      returnFees: 'https://schema.org/ReturnFeesCustomerResponsibility',
      refundType: 'https://schema.org/FullRefund',
      merchantReturnLink: 'https://shop.test/de/returns',
    });
    expect(offer.seller).toEqual({ '@type': 'Organization', '@id': 'https://shop.test/#organization', name: 'Atelier Prints' });
  });
});

describe("the home page's shop", () => {
  const operator = {
    name: 'Atelier Rouge',
    legalName: 'Atelier Rouge SARL',
    email: 'bonjour@rouge.test',
    address: ['1 rue X', '75001 Paris', 'France'],
    phone: null,
    vatId: 'FR123',
    demo: false,
  };

  test('a demonstration names the shop, never its example legal details', () => {
    const organization = shopOrganization({
      base,
      locale: 'en',
      identity: { ...demoIdentity, address: [...demoIdentity.address], email: 'studio@atelier-prints.example', demo: true },
    });
    expect(organization).toMatchObject({ '@type': 'Organization', name: 'Atelier Prints', url: 'https://shop.test/en' });
    for (const field of ['legalName', 'email', 'address', 'telephone', 'vatID']) expect(organization, field).not.toHaveProperty(field);
  });

  test("the operator's organisation and a website whose search is the grid's", () => {
    const [organization, site] = shopNodes({ base, locale: 'ja', identity: operator });
    expect(organization).toMatchObject({ legalName: 'Atelier Rouge SARL', email: 'bonjour@rouge.test', address: '1 rue X, 75001 Paris, France', vatID: 'FR123' });
    expect(organization).not.toHaveProperty('telephone');
    expect(organization!.hasMerchantReturnPolicy).toEqual(returnPolicy(base, 'ja'));
    expect(site).toMatchObject({
      '@type': 'WebSite',
      url: 'https://shop.test/ja',
      inLanguage: 'ja',
      publisher: { '@id': 'https://shop.test/#organization' },
      potentialAction: { target: { urlTemplate: 'https://shop.test/ja/artworks?q={search_term_string}' }, 'query-input': 'required name=search_term_string' },
    });
  });
});
