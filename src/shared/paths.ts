import type { TaxonKindPlural } from '@/shared/catalog';
import { catalogLocales, type Locale } from '@/shared/locales';

/**
 * The website's page addresses, without the locale prefix: the one place sitemaps, search-engine
 * notifications, e-mail links and the pages themselves agree on. A page lives at `/<locale><path>`.
 */
export const pagePath = {
  home: () => '',
  artworks: () => '/artworks',
  artwork: (slug: string) => `/artworks/${slug}`,
  artists: () => '/artists',
  artist: (slug: string) => `/artists/${slug}`,
  taxa: (kind: TaxonKindPlural) => `/${kind}`,
  taxon: (kind: TaxonKindPlural, slug: string) => `/${kind}/${slug}`,
  custom: () => '/custom',
  /** Finished paintings shown with their customers' consent. */
  showcase: () => '/showcase',
  orderLookup: () => '/orders',
  /** One order, as Stripe's return link and the customer's e-mails open it. */
  order: (code: string) => `/orders/${code}`,
  /** A basket's page: its orders, each linking to its own page, and one payment for all of them. */
  basket: (code: string) => `/orders/basket/${code}`,
  /** Personal pages: never in a sitemap. */
  favorites: () => '/favorites',
  /** The works put aside to be ordered and paid together (the basket before it is ordered). */
  shoppingBasket: () => '/basket',
  /** The signed-in account's orders. */
  myOrders: () => '/my-orders',
  signIn: () => '/sign-in',
  /** The shop's information pages (src/server/shop/pages.ts), linked from every page's footer. */
  about: () => '/about',
  shipping: () => '/shipping',
  returns: () => '/returns',
  terms: () => '/terms',
  privacy: () => '/privacy',
  imprint: () => '/imprint',
};

/** The pages that exist whatever the catalog holds. */
export const staticPaths = [
  pagePath.home(),
  pagePath.artworks(),
  pagePath.artists(),
  pagePath.taxa('museums'),
  pagePath.taxa('movements'),
  pagePath.taxa('subjects'),
  pagePath.taxa('genres'),
  pagePath.custom(),
  pagePath.showcase(),
  pagePath.orderLookup(),
  pagePath.about(),
  pagePath.shipping(),
  pagePath.returns(),
  pagePath.terms(),
  pagePath.privacy(),
  pagePath.imprint(),
];

export const pageUrl = (baseUrl: string, locale: Locale, path: string) => `${baseUrl.replace(/\/$/, '')}/${locale}${path}`;

/**
 * Pages' addresses in each catalog language, under one base: what hreflang alternates and
 * notifications list. The base is joined to each language once, not for every page: a sitemap
 * chunk lists 5,000 pages.
 */
export function alternatesUnder(baseUrl: string) {
  const homes = catalogLocales.map((locale) => [locale, pageUrl(baseUrl, locale, '')] as const);
  return (path: string) => homes.map(([hreflang, home]) => ({ hreflang, href: home + path }));
}

/** A page's address in each catalog language. */
export const alternates = (baseUrl: string, path: string) => alternatesUnder(baseUrl)(path);
