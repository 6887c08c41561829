import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { BasketList } from '@/components/basket/basket-list';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { ClientMessages } from '@/i18n/client-messages-provider';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { configuredPaymentMode } from '@/server/orders/payment';
import { pagePath } from '@/shared/paths';
import { serverApi } from '@/trpc/server';

/*
 * The same for everyone (the basket lives in the browser, or is read there from the account):
 * rendered once and served from cache. Nothing personal is ever in the cached HTML.
 */
export const revalidate = 300;

interface Props {
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Basket' });
  // A personal page: kept out of search engines.
  return pageMetadata({ locale, path: pagePath.shoppingBasket(), title: t('metaTitle'), description: t('metaDescription'), noindex: true });
}

export default async function ShoppingBasketPage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const [t, prices] = await Promise.all([getTranslations('Basket'), serverApi().orders.pricing({})]);

  return (
    <div className="container">
      <div className="page-head">
        <Breadcrumbs items={[{ name: t('eyebrow') }]} />
        <h1>{t('title')}</h1>
        <p>{t('lead')}</p>
      </div>
      <div className="page-section">
        <ClientMessages page="basket">
          <BasketList initialPrices={prices} paymentMode={configuredPaymentMode()} />
        </ClientMessages>
      </div>
    </div>
  );
}
