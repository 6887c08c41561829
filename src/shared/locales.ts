/**
 * The shop's languages. The website's routes and strings, the order form, the catalog, the e-mails,
 * the staff dashboard and the database's CHECK on `orders.locale` all read these lists
 * (tests/integration/shared-lists.test.ts holds the database to them). docs/architecture.md "How to
 * add a locale, an order status, or an artwork field" lists what a new language needs.
 */

/** Every locale the website and the order form speak. */
export const locales = ['en', 'es', 'fr', 'de', 'it', 'ja', 'vi'] as const;
export type Locale = (typeof locales)[number];

/** The languages catalog text, stories, e-mails and page notifications are written in; `vi` falls back to English. */
export const catalogLocales = ['en', 'es', 'fr', 'de', 'it', 'ja'] as const satisfies readonly Locale[];
export type CatalogLocale = (typeof catalogLocales)[number];

export const defaultLocale: Locale = 'en';

/** Each language's name in itself, as the language menus (website and dashboard) show it. */
export const languageNames: Record<Locale, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  ja: '日本語',
  vi: 'Tiếng Việt',
};

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (locales as readonly string[]).includes(value);

export const isCatalogLocale = (locale: string): locale is CatalogLocale => (catalogLocales as readonly string[]).includes(locale);

/** The language catalog text and e-mails are read in for `locale`: itself when the catalog is written in it, else English. */
export function textLocale(locale: string): CatalogLocale {
  return isCatalogLocale(locale) ? locale : 'en';
}
