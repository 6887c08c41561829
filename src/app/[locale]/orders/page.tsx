import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { OrderLookupForm } from '@/components/order-status/order-lookup-form';
import css from '@/components/order-status/order-status.module.css';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { ClientMessages } from '@/i18n/client-messages-provider';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { pagePath } from '@/shared/paths';

// A personal, transactional page: never cached, never indexed.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Orders.lookup.meta' });
  return pageMetadata({ locale, path: pagePath.orderLookup(), title: t('title'), description: t('description'), noindex: true });
}

export default async function OrderLookupPage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const t = await getTranslations('Orders.lookup');

  return (
    <div className={`container ${css.lookupPage}`}>
      <div className="page-head">
        <Breadcrumbs items={[{ name: t('breadcrumb') }]} />
        <h1>{t('title')}</h1>
        <p>{t('lead')}</p>
      </div>
      <ClientMessages page="order">
        <div className={`page-section ${css.lookupCard}`}>
          <OrderLookupForm />
        </div>
      </ClientMessages>
    </div>
  );
}
