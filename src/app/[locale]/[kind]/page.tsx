import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import styles from '@/components/browse/browse.module.css';
import { TaxonCards } from '@/components/browse/cards';
import { cachedTaxa } from '@/components/browse/catalog-lists';
import { EmptyState } from '@/components/browse/empty-state';
import { isTaxonKind, otherKinds } from '@/components/browse/kinds';
import { pageParam, type SearchParams } from '@/components/browse/params';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { ButtonLink } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { Link } from '@/i18n/navigation';
import { routing } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import type { TaxonKindPlural } from '@/shared/catalog';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';

// The page reads `?page=`, so it is rendered per request; its catalog reads are cached for five
// minutes (src/components/browse/catalog-lists.ts), as long as a cached page would live.
export const dynamic = 'force-dynamic';

interface Props {
  params: Promise<{ locale: string; kind: string }>;
  searchParams: Promise<SearchParams>;
}

const readTaxa = cache((locale: Locale, kind: TaxonKindPlural, page: number) => cachedTaxa(locale, kind, page));

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { locale, kind } = await params;
  if (!hasLocale(routing.locales, locale) || !isTaxonKind(kind)) return {};
  const page = pageParam(await searchParams);
  const [t, taxa] = await Promise.all([getTranslations({ locale, namespace: 'Taxa' }), readTaxa(locale, kind, page)]);
  return pageMetadata({
    locale,
    path: pagePath.taxa(kind),
    title: page > 1 ? t('indexTitlePage', { kind: t(`plural.${kind}`), page }) : t(`plural.${kind}`),
    description: t(`lead.${kind}`),
    imageFile: taxa.items.find((taxon) => taxon.imageFile)?.imageFile,
  });
}

/** The browse pages of one kind (`/museums`): those the catalog shows, with at least 3 works each. */
export default async function BrowseIndexPage({ params, searchParams }: Props) {
  const { locale, kind } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  // `/anything` under a language reaches this route; only the four kinds are pages.
  if (!isTaxonKind(kind)) notFound();
  setRequestLocale(locale);
  const page = pageParam(await searchParams);
  const [t, browse, taxa] = await Promise.all([getTranslations('Taxa'), getTranslations('Browse'), readTaxa(locale, kind, page)]);

  return (
    <div className="container">
      <header className="page-head">
        <Breadcrumbs items={[{ name: t(`plural.${kind}`) }]} />
        <h1>{t(`plural.${kind}`)}</h1>
        <p>{t(`lead.${kind}`)}</p>
      </header>
      <section className="page-section" aria-label={t(`plural.${kind}`)}>
        {taxa.items.length ? (
          <>
            <TaxonCards items={taxa.items} eager={4} />
            <Pagination path={pagePath.taxa(kind)} page={taxa.page} total={taxa.total} pageSize={taxa.pageSize} />
          </>
        ) : taxa.total > 0 ? (
          <EmptyState title={browse('pastEndTitle')} body={browse('pastEndBody')}>
            <ButtonLink variant="primary" href={pagePath.taxa(kind)}>
              {browse('firstPage')}
            </ButtonLink>
          </EmptyState>
        ) : (
          <EmptyState title={t(`empty.${kind}`)} body={t('emptyBody')}>
            <ButtonLink variant="primary" href={pagePath.artworks()}>
              {browse('seeAll')}
            </ButtonLink>
          </EmptyState>
        )}
      </section>
      <nav className={styles.otherKinds} aria-label={t('otherKinds')}>
        <p className={styles.relatedTitle}>{t('otherKinds')}</p>
        <ul className={styles.pills}>
          {otherKinds(kind).map((other) => (
            <li key={other}>
              <Link className={styles.pill} href={pagePath.taxa(other)}>
                {t(`plural.${other}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
