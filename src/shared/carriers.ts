import type { Locale } from './locales';

/**
 * The carriers the studio ships with (issue #42, item 7): staff choose one with the tracking number,
 * and the customer's order page, e-mail and `/v1` lookup link the number to the carrier's own
 * tracking page. The list is short on purpose; a parcel sent otherwise keeps its number unlinked.
 * Stored in `orders.carrier` under a CHECK that holds exactly this list (tests/integration/shared-lists.test.ts).
 */
export const carriers = ['dhl', 'ups', 'fedex', 'usps', 'dpd', 'gls', 'japan_post', 'yamato'] as const;
export type Carrier = (typeof carriers)[number];

interface CarrierInfo {
  /** The brand as it is written on the parcel; `local` where a language writes it otherwise. */
  name: string;
  local?: Partial<Record<Locale, string>>;
  /** The carrier's public tracking page, `{number}` standing for the tracking number. */
  page: string;
}

// Each carrier's own public tracking page that takes the number in its address, so the customer lands on
// their parcel rather than a search form. No library keeps such a table for Europe's and Japan's
// carriers (tracking-url and its kin know the US ones only), hence this one.
const info: Record<Carrier, CarrierInfo> = {
  dhl: { name: 'DHL', page: 'https://www.dhl.com/global-en/home/tracking.html?tracking-id={number}&submit=1' },
  ups: { name: 'UPS', page: 'https://www.ups.com/track?tracknum={number}' },
  fedex: { name: 'FedEx', page: 'https://www.fedex.com/fedextrack/?trknbr={number}' },
  usps: { name: 'USPS', page: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={number}' },
  dpd: { name: 'DPD', page: 'https://tracking.dpd.de/status/en_US/parcel/{number}' },
  gls: { name: 'GLS', page: 'https://gls-group.com/track/{number}' },
  japan_post: {
    name: 'Japan Post',
    local: { ja: '日本郵便' },
    page: 'https://trackings.post.japanpost.jp/services/srv/search/direct?reqCodeNo1={number}&searchKind=S002',
  },
  yamato: { name: 'Yamato Transport', local: { ja: 'ヤマト運輸' }, page: 'https://toi.kuronekoyamato.co.jp/cgi-bin/tneko?number00=1&number01={number}' },
};

/** The carrier's name in a language: "Japan Post", "日本郵便". */
export function carrierName(carrier: Carrier, locale: string): string {
  return info[carrier].local?.[locale as Locale] ?? info[carrier].name;
}

/** Where a parcel's journey shows: the carrier's page for this number, or null when either is unknown. */
export function trackingUrl(carrier: Carrier | null, trackingNumber: string | null): string | null {
  if (!carrier || !trackingNumber) return null;
  return info[carrier].page.replace('{number}', encodeURIComponent(trackingNumber));
}
