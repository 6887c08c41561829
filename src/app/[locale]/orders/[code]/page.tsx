import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import type { OrderBanner } from '@/components/order-status/order-details';
import { OrderPage } from '@/components/order-status/order-page';
import css from '@/components/order-status/order-status.module.css';
import { ClientMessages } from '@/i18n/client-messages-provider';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { ownedOrderEmail } from '@/server/accounts/orders';
import { db } from '@/server/db/client';
import { pagePath } from '@/shared/paths';
import { pageCustomer } from '../../_lib/customer';

// One customer's order: read in the browser with their e-mail (or their session), never cached, never indexed.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ locale: string; code: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** Order codes are 10 characters; the lookup takes up to 20 (interface.md §8). */
const plausibleCode = (code: string) => /^[0-9A-Za-z]{1,20}$/.test(code);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale, code } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Orders.order.meta' });
  const shown = code.toUpperCase();
  return pageMetadata({ locale, path: pagePath.order(shown), title: t('title', { code: shown }), description: t('description'), noindex: true });
}

export default async function OrderCodePage({ params, searchParams }: Props) {
  const { locale, code } = await params;
  if (!hasLocale(routing.locales, locale) || !plausibleCode(code)) notFound();
  setRequestLocale(locale);
  const query = await searchParams;
  // `?placed=1` from our own form; `?checkout=success|cancelled` from Stripe's return (docs/decisions.md "Payments").
  const banner: OrderBanner = query.checkout === 'success' ? 'paid' : query.checkout === 'cancelled' ? 'cancelled' : query.placed === '1' ? 'placed' : null;
  // The order page trusts the session of the account that owns the order, and only that: its
  // owner is not asked for the e-mail, which the lookup gets from here; anyone else still is.
  const user = await pageCustomer();
  const ownerEmail = user ? await ownedOrderEmail(db(), user.id, code) : null;

  return (
    <div className={`container ${css.orderPage}`}>
      <ClientMessages page="order">
        <OrderPage code={code} banner={banner} ownerEmail={ownerEmail} />
      </ClientMessages>
    </div>
  );
}
