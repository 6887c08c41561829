import '../globals.css';
import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { hasLocale, NextIntlClientProvider } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { Link } from '@/i18n/navigation';
import { alternatesFor, pathnameHeader, routing, stripLocale } from '@/i18n/routing';
import { env, publicBaseUrl } from '@/server/env';
import { LocaleSwitcher } from './_components/locale-switcher';

interface Props {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}

/** Where the site is reached publicly, so canonical and hreflang links are absolute. */
const publicBase = () => new URL(publicBaseUrl(env()));

export const viewport: Viewport = { themeColor: '#f6f1e8' };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Metadata' });
  // Every page gets its canonical and hreflang links from the path the proxy saw; a page may still
  // set its own `alternates` (with `alternatesFor`) and that wins.
  const visited = (await headers()).get(pathnameHeader);
  return {
    metadataBase: publicBase(),
    title: { default: t('title'), template: t('titleTemplate') },
    description: t('description'),
    applicationName: 'Atelier Prints',
    icons: { icon: [{ url: '/favicon.svg', type: 'image/svg+xml' }] },
    alternates: alternatesFor(locale, visited ? stripLocale(visited) : '/'),
    openGraph: { siteName: 'Atelier Prints', locale, type: 'website' },
  };
}

export default async function LocaleLayout({ children, params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const t = await getTranslations('Layout');
  const year = new Date().getUTCFullYear();

  return (
    <html lang={locale}>
      <body>
        <NextIntlClientProvider>
          <a className="skip-link" href="#content">
            {t('skipToContent')}
          </a>
          <div className="page">
            <header className="site-header">
              <div className="container site-header__inner">
                <Link className="brand" href="/" aria-label={t('homeLink')}>
                  <span className="brand__mark" aria-hidden="true" />
                  <span className="brand__name">{t('shopName')}</span>
                </Link>
                <LocaleSwitcher />
              </div>
            </header>
            <main id="content">{children}</main>
            <footer className="site-footer">
              <div className="container site-footer__inner">
                <div>
                  <p className="site-footer__name">{t('shopName')}</p>
                  <p>{t('footerTagline')}</p>
                </div>
                <div className="site-footer__meta">
                  <p>{t('footerImages')}</p>
                  <p>{t('footerRights', { year })}</p>
                </div>
              </div>
            </footer>
          </div>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
