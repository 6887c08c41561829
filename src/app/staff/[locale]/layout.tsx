import '../../globals.css';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { hasLocale, NextIntlClientProvider } from 'next-intl';
import { getMessages, getTranslations, setRequestLocale } from 'next-intl/server';
import { routing } from '@/i18n/routing';
import { hasStaffSession } from '../_lib/auth';
import { StaffApiProvider } from '../_lib/trpc';
import { StaffNav } from './staff-nav';
import styles from './staff.module.css';

interface Props {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Staff.meta' });
  return {
    title: { default: t('title'), template: t('titleTemplate') },
    // The dashboard is for the studio only: never indexed, never a referrer to the shop's data.
    robots: { index: false, follow: false },
    referrer: 'same-origin',
    icons: { icon: [{ url: '/favicon.svg', type: 'image/svg+xml' }] },
  };
}

/**
 * The staff dashboard's document, outside the storefront's `[locale]` tree so its session cookie
 * can be scoped to /staff. Only the `Staff` strings go to the browser.
 */
export default async function StaffLayout({ children, params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const [t, messages, signedIn] = await Promise.all([getTranslations({ locale, namespace: 'Staff.nav' }), getMessages({ locale }), hasStaffSession()]);

  return (
    <html lang={locale}>
      <body className={styles.body}>
        <NextIntlClientProvider locale={locale} messages={{ Staff: messages.Staff }} timeZone="UTC">
          <StaffApiProvider>
            <a className="skip-link" href="#content">
              {t('skip')}
            </a>
            <header className={styles.header}>
              <div className={styles.headerInner}>
                <p className={styles.brand}>
                  <span className="brand__mark" aria-hidden="true" />
                  <span>{t('brand')}</span>
                </p>
                <StaffNav locale={locale} signedIn={signedIn} />
              </div>
            </header>
            <main id="content" className={styles.main}>
              {children}
            </main>
          </StaffApiProvider>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
