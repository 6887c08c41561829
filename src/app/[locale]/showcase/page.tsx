import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { EmptyState } from '@/components/browse/empty-state';
import { ShowcaseGallery } from '@/components/showcase/showcase-gallery';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { ButtonLink } from '@/components/ui/button';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { pagePath } from '@/shared/paths';
import { serverApi } from '@/trpc/server';

// The same for every visitor: rendered once, then served from cache; a painting staff show in (or
// take out of) the gallery appears within these 300 s, as on the home and custom pages.
export const revalidate = 300;

interface Props {
  params: Promise<{ locale: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  const t = await getTranslations({ locale, namespace: 'Showcase.meta' });
  return pageMetadata({ locale, path: pagePath.showcase(), title: t('title'), description: t('description') });
}

/**
 * Proof of our work (issue #42, item 5): every finished painting the studio shows with its
 * customer's consent (GET /v1/showcase's gallery, at most 24), linked from the consent box, the
 * footer and the home page's gallery.
 */
export default async function ShowcasePage({ params }: Props) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const [t, gallery] = await Promise.all([getTranslations('Showcase'), serverApi().showcase.gallery({ locale })]);

  return (
    <>
      <div className="container page-head">
        <Breadcrumbs items={[{ name: t('title') }]} />
        <p className="eyebrow">{t('eyebrow')}</p>
        <h1>{t('title')}</h1>
        <p>{t('lead')}</p>
      </div>
      {gallery.items.length ? (
        <ShowcaseGallery gallery={gallery} locale={locale} max={gallery.items.length} untitled />
      ) : (
        <div className="container page-section">
          <EmptyState title={t('empty')}>
            <ButtonLink variant="primary" href={pagePath.custom()}>
              {t('emptyCustom')}
            </ButtonLink>
            <ButtonLink href={pagePath.artworks()}>{t('emptyWorks')}</ButtonLink>
          </EmptyState>
        </div>
      )}
    </>
  );
}
