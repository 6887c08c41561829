import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { CustomOrderForm } from '@/components/custom/custom-order-form';
import { WhatYouReceive } from '@/components/order/what-you-receive';
import { ShowcaseGallery } from '@/components/showcase/showcase-gallery';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { ClientMessages } from '@/i18n/client-messages-provider';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { configuredPaymentMode } from '@/server/orders/payment';
import { pagePath } from '@/shared/paths';
import { serverApi } from '@/trpc/server';

// The same for every visitor (the form lives in the browser): rendered once, then served from
// cache; a painting staff show in (or take out of) the gallery appears within these 300 s.
export const revalidate = 300;

interface Props {
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Custom.meta' });
  return pageMetadata({ locale, path: pagePath.custom(), title: t('title'), description: t('description') });
}

export default async function CustomPaintingPage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  // The price table the server charges by, so the price is on the first paint (GET /v1/pricing).
  // The gallery: the same procedure as GET /v1/showcase.
  const [t, prices, gallery] = await Promise.all([getTranslations('Custom'), serverApi().orders.pricing({}), serverApi().showcase.gallery({ locale })]);

  return (
    <>
      <div className="container page-head">
        <Breadcrumbs items={[{ name: t('breadcrumb') }]} />
        <p className="eyebrow">{t('eyebrow')}</p>
        <h1>{t('title')}</h1>
        <p>{t('lead')}</p>
      </div>
      <ClientMessages page="custom">
        <div className="container page-section">
          <CustomOrderForm initialPrices={prices} paymentMode={configuredPaymentMode()} />
        </div>
      </ClientMessages>
      <div className="container page-section">
        <WhatYouReceive locale={locale} kind="custom" />
      </div>
      <ShowcaseGallery gallery={gallery} locale={locale} />
    </>
  );
}
