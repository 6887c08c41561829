import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { setRequestLocale } from 'next-intl/server';
import { legalMetadata, LegalPage, ShopDetails } from '@/components/legal/legal-page';
import { JsonLd } from '@/components/json-ld';
import { routing } from '@/i18n/routing';
import { env, publicBaseUrl } from '@/server/env';
import { shopIdentity } from '@/server/shop/identity';

// The same for every visitor and no database read: rendered once per language, then served from
// cache. Re-rendered at most every five minutes, so changed SHOP_* settings show soon after a restart.
export const revalidate = 300;

interface Props {
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  return legalMetadata(locale, 'about');
}

/** Who we are, and how to reach the studio. Texts: `Legal.about` in messages/<locale>.json. */
export default async function AboutPage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const identity = shopIdentity(env());
  const contact = (
    <>
      <ShopDetails show={['legalName', 'address', 'email', 'phone']} />
      {/* Search engines learn who runs the shop, but never a demonstration's example values. */}
      {identity.demo ? null : (
        <JsonLd
          data={{
            '@context': 'https://schema.org',
            '@type': 'Organization',
            name: identity.name,
            legalName: identity.legalName,
            url: publicBaseUrl(env()),
            email: identity.email,
            address: identity.address.join(', '),
            ...(identity.phone ? { telephone: identity.phone } : {}),
            ...(identity.vatId ? { vatID: identity.vatId } : {}),
          }}
        />
      )}
    </>
  );
  return <LegalPage page="about" extras={{ contact }} />;
}
