import type { Metadata } from 'next';
import { alternatesFor } from '@/i18n/routing';
import { isCatalogLocale, type Locale } from '@/shared/locales';
import { imageSrc } from '@/shared/images';

interface PageMeta {
  locale: Locale;
  /** The page's address without the locale prefix (see `pagePath`). */
  path: string;
  title: string;
  description: string;
  /** A Commons file to show when the page is shared. */
  imageFile?: string | null;
  /** Personal or transactional pages (an order, favorites) stay out of search engines. */
  noindex?: boolean;
}

/**
 * A page's <head>: title, description, canonical, hreflang alternates for the six catalog
 * languages plus x-default, and Open Graph. Every storefront page builds its metadata here.
 */
export function pageMetadata({ locale, path, title, description, imageFile, noindex }: PageMeta): Metadata {
  const alternates = alternatesFor(locale, path);
  return {
    title,
    description,
    alternates,
    openGraph: {
      title,
      description,
      url: alternates.canonical,
      locale,
      type: 'website',
      siteName: 'Atelier Prints',
      ...(imageFile ? { images: [{ url: imageSrc(imageFile, 1280), width: 1280 }] } : {}),
    },
    twitter: { card: imageFile ? 'summary_large_image' : 'summary', title, description },
    // Vietnamese pages speak Vietnamese around an English catalog (no catalog text is written in
    // vi): a shopper may use them, a search engine is asked to index the catalog languages only, as
    // the hreflang sets and the sitemaps name them (docs/storefront.md "Strings").
    ...(noindex || !isCatalogLocale(locale) ? { robots: { index: false, follow: true } } : {}),
  };
}
