import '../globals.css';
import type { Metadata, Viewport } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { BasketProvider } from '@/components/basket/use-basket';
import { FavoritesProvider } from '@/components/favorites/use-favorites';
import { HeaderAccount } from '@/components/site/header-account';
import { SiteFooter } from '@/components/site/site-footer';
import { SiteMenu } from '@/components/site/site-menu';
import { SiteSearch } from '@/components/site/site-search';
import styles from '@/components/site/site.module.css';
import { ClientMessages } from '@/i18n/client-messages-provider';
import { Link } from '@/i18n/navigation';
import { routing } from '@/i18n/routing';
import { env, publicBaseUrl } from '@/server/env';
import { pagePath } from '@/shared/paths';
import { TrpcProvider } from '@/trpc/react';
import { LocaleSwitcher } from './_components/locale-switcher';

interface Props {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}

/**
 * No locale is rendered at build time (the build has no database); each page is rendered on its
 * first visit and then served from Next's cache until it revalidates (pages set `revalidate`).
 */
export function generateStaticParams() {
  return [];
}

export const viewport: Viewport = { themeColor: '#f6f1e8', width: 'device-width', initialScale: 1 };

/** What every page shares; each page adds its own title, description, canonical and hreflang (`pageMetadata`). */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Metadata' });
  return {
    metadataBase: new URL(publicBaseUrl(env())),
    title: { default: t('title'), template: t('titleTemplate') },
    description: t('description'),
    applicationName: 'Atelier Prints',
    icons: { icon: [{ url: '/favicon.svg', type: 'image/svg+xml' }] },
    openGraph: { siteName: 'Atelier Prints', locale, type: 'website' },
  };
}

export default async function LocaleLayout({ children, params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const t = await getTranslations('Layout');
  const nav = await getTranslations('Nav');

  return (
    <html lang={locale}>
      <body>
        <ClientMessages>
          <TrpcProvider>
            <FavoritesProvider>
              <BasketProvider>
                <a className="skip-link" href="#content">
                  {t('skipToContent')}
                </a>
                <div className="page">
                  <header className={styles.header}>
                    <div className={`container ${styles.top}`}>
                      <Link className="brand" href="/" aria-label={t('homeLink')}>
                        <span className="brand__mark" aria-hidden="true" />
                        <span className="brand__name">{t('shopName')}</span>
                      </Link>
                      <SiteSearch locale={locale} />
                      <LocaleSwitcher />
                    </div>
                    <div className={`container ${styles.bottom}`}>
                      <SiteMenu label={nav('menu')}>
                        <nav className={styles.nav} aria-label={nav('label')}>
                          <ul>
                            <li>
                              <Link href={pagePath.artworks()}>{nav('artworks')}</Link>
                            </li>
                            <li>
                              <Link href={pagePath.artists()}>{nav('artists')}</Link>
                            </li>
                            <li>
                              <Link href={pagePath.taxa('movements')}>{nav('movements')}</Link>
                            </li>
                            <li>
                              <Link href={pagePath.taxa('museums')}>{nav('museums')}</Link>
                            </li>
                            <li>
                              <Link href={pagePath.custom()}>{nav('custom')}</Link>
                            </li>
                            {/* A phone's menu also holds the order lookup, which sits in the header's corner elsewhere. */}
                            <li className={styles.phoneOnly}>
                              <Link href={pagePath.orderLookup()}>{nav('orders')}</Link>
                            </li>
                          </ul>
                        </nav>
                      </SiteMenu>
                      <HeaderAccount />
                    </div>
                  </header>
                  <main id="content">{children}</main>
                  <SiteFooter />
                </div>
              </BasketProvider>
            </FavoritesProvider>
          </TrpcProvider>
        </ClientMessages>
      </body>
    </html>
  );
}
