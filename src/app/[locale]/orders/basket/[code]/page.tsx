import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { BasketPage } from '@/components/basket-status/basket-page';
import css from '@/components/order-status/order-status.module.css';
import { ClientMessages } from '@/i18n/client-messages-provider';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { ownedBasketEmail } from '@/server/accounts/orders';
import { db } from '@/server/db/client';
import { pagePath } from '@/shared/paths';
import { pageCustomer } from '../../../_lib/customer';

// One customer's basket: read in the browser with their e-mail (or their session), never cached, never indexed.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ locale: string; code: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

const plausibleCode = (code: string) => /^[0-9A-Za-z]{1,20}$/.test(code);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale, code } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Orders.basket.meta' });
  const shown = code.toUpperCase();
  return pageMetadata({ locale, path: pagePath.basket(shown), title: t('title', { code: shown }), description: t('description'), noindex: true });
}

export default async function BasketCodePage({ params, searchParams }: Props) {
  const { locale, code } = await params;
  if (!hasLocale(routing.locales, locale) || !plausibleCode(code)) notFound();
  setRequestLocale(locale);
  const query = await searchParams;
  // `?checkout=success|cancelled` from Stripe's return, as on an order's page.
  const banner = query.checkout === 'success' ? 'paid' : query.checkout === 'cancelled' ? 'cancelled' : query.placed === '1' ? 'placed' : null;
  const user = await pageCustomer();
  const ownerEmail = user ? await ownedBasketEmail(db(), user.id, code) : null;
  return (
    <div className={`container ${css.orderPage}`}>
      <ClientMessages page="order">
        <BasketPage code={code} banner={banner} ownerEmail={ownerEmail} />
      </ClientMessages>
    </div>
  );
}
