import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { MyOrders, SignInForOrders } from '@/components/my-orders/my-orders';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { pagePath } from '@/shared/paths';
import { pageCustomer } from '../_lib/customer';

// One account's orders: read from the session cookie on every request, never cached, never indexed.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'MyOrders' });
  return pageMetadata({ locale, path: pagePath.myOrders(), title: t('metaTitle'), description: t('metaDescription'), noindex: true });
}

export default async function MyOrdersPage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const t = await getTranslations('MyOrders');
  const user = await pageCustomer();

  return (
    <div className="container">
      <div className="page-head">
        <Breadcrumbs items={[{ name: t('title') }]} />
        <h1>{t('title')}</h1>
        <p>{t('lead')}</p>
      </div>
      <section className="page-section" aria-labelledby="my-orders-label">
        <h2 id="my-orders-label" className="visually-hidden">
          {t('listLabel')}
        </h2>
        {user ? <MyOrders user={user} locale={locale} /> : <SignInForOrders />}
      </section>
    </div>
  );
}
