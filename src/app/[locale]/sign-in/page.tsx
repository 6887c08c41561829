import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { SignInPanel } from '@/components/favorites/sign-in-panel';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { pagePath } from '@/shared/paths';

/*
 * The same page for everyone, served from cache; whether the shopper is signed in, and the
 * `?error=` NextAuth adds when a sign-in did not complete, are read in the browser.
 */
export const revalidate = 300;

interface Props {
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Account' });
  return pageMetadata({ locale, path: pagePath.signIn(), title: t('metaTitle'), description: t('metaDescription'), noindex: true });
}

export default async function SignInPage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const t = await getTranslations('Account');

  return (
    <div className="container">
      <div className="page-head">
        <Breadcrumbs items={[{ name: t('title') }]} />
        <h1>{t('title')}</h1>
        <p>{t('lead')}</p>
      </div>
      <div className="page-section">
        {/* The query is the browser's to read; the page around it stays static. */}
        <Suspense fallback={null}>
          <SignInPanel />
        </Suspense>
      </div>
    </div>
  );
}
