import { catalogLocales, type CatalogLocale, type Locale } from '@/server/shared/locales';

/** The language catalog text is read in: the asked one when the catalog is written in it, else English. */
export function textLocale(locale: Locale): CatalogLocale {
  return (catalogLocales as readonly string[]).includes(locale) ? (locale as CatalogLocale) : 'en';
}

/** Where a Commons file is served from; the website adds `?width=` for thumbnails. */
export function commonsUrl(file: string | null): string | null {
  return file ? `https://commons.wikimedia.org/wiki/Special:FilePath/${encodeURIComponent(file)}` : null;
}

/** Our slugs are lower-case ASCII words joined by hyphens; anything else names nothing we have. */
export const isSlug = (value: string) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
