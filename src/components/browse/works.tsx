import { useTranslations } from 'next-intl';
import { ArtworkGrid } from '@/components/artwork/artwork-card';
import { ButtonLink } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import type { ArtworkCard, Page } from '@/server/catalog/schema';
import { EmptyState } from './empty-state';

interface Props {
  works: Page<ArtworkCard>;
  /** The list's address without locale, for page links. */
  path: string;
  query?: Record<string, string | undefined>;
  label?: string;
  eager?: number;
}

/**
 * A page of works with its page links. A page past the end (an old link, a hand-edited address)
 * says so and leads back to the first page, keeping the rest of the query.
 */
export function WorksList({ works, path, query = {}, label, eager }: Props) {
  const t = useTranslations('Browse');
  if (works.items.length === 0 && works.total > 0) {
    const kept = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => !!entry[1]));
    return (
      <EmptyState title={t('pastEndTitle')} body={t('pastEndBody')}>
        <ButtonLink href={{ pathname: path, query: kept }} variant="primary">
          {t('firstPage')}
        </ButtonLink>
      </EmptyState>
    );
  }
  return (
    <>
      <ArtworkGrid works={works.items} label={label} eager={eager} />
      <Pagination path={path} query={query} page={works.page} total={works.total} pageSize={works.pageSize} />
    </>
  );
}
