import { defineRouting } from 'next-intl/routing';
import { catalogLocales, defaultLocale, isLocale, locales, type Locale } from '@/shared/locales';

export const routing = defineRouting({
  locales,
  defaultLocale,
  localePrefix: 'always',
  // hreflang alternates are written into each page's <head> (six catalog languages only, see
  // `alternatesFor`); next-intl's own Link header would also list `vi`, which has no catalog text.
  alternateLinks: false,
});

/** The path without its locale prefix: `/ja/artworks/x` → `/artworks/x`, `/ja` → `/`. */
export function stripLocale(pathname: string): string {
  const [, first, ...rest] = pathname.split('/');
  if (isLocale(first)) return `/${rest.join('/')}`.replace(/\/+$/, '') || '/';
  return pathname || '/';
}

/** `/` under a locale is `/en`, not `/en/`. */
export function localizedPath(locale: Locale, path: string): string {
  return path === '/' || path === '' ? `/${locale}` : `/${locale}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * Metadata `alternates` for one page: canonical is the page itself, hreflang links go to the six
 * languages catalog text is written in (plus x-default → English). `path` is without locale prefix.
 */
export function alternatesFor(locale: Locale, path: string) {
  const languages: Record<string, string> = {};
  for (const l of catalogLocales) languages[l] = localizedPath(l, path);
  languages['x-default'] = localizedPath(defaultLocale, path);
  return { canonical: localizedPath(locale, path), languages };
}

// Typed messages and locales for next-intl: a key missing from messages/en.json is a type error.
declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof import('../../messages/en.json');
  }
}
