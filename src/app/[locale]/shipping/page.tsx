import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { setRequestLocale } from 'next-intl/server';
import { LeadTimeTable, legalMetadata, LegalPage } from '@/components/legal/legal-page';
import { routing } from '@/i18n/routing';

// The same for every visitor and no database read: rendered once per language, then served from
// cache. Re-rendered at most every five minutes, so changed SHOP_* settings show soon after a restart.
export const revalidate = 300;

interface Props {
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  return legalMetadata(locale, 'shipping');
}

/** How long a painting takes, and how it travels. Texts: `Legal.shipping` in messages/<locale>.json. */
export default async function ShippingPage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  return <LegalPage page="shipping" extras={{ production: <LeadTimeTable locale={locale} /> }} />;
}
