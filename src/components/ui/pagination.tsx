import { useLocale, useTranslations } from 'next-intl';
import { Link } from '@/i18n/navigation';
import { formatCount } from '@/lib/format';
import styles from './pagination.module.css';

interface Props {
  /** The list's address without locale (e.g. `/artworks`). */
  path: string;
  /** The rest of the query, kept on every page link (search words, filters). */
  query?: Record<string, string | undefined>;
  page: number;
  total: number;
  pageSize: number;
}

/** Page links that keep the query in the address, so every page of a search can be shared or bookmarked. */
export function Pagination({ path, query = {}, page, total, pageSize }: Props) {
  const t = useTranslations('Common.pagination');
  const locale = useLocale();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const href = (n: number) => {
    const kept = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => !!entry[1]));
    return { pathname: path, query: n === 1 ? kept : { ...kept, page: String(n) } };
  };
  const around = [...new Set([1, page - 1, page, page + 1, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b);
  return (
    <nav className={styles.pagination} aria-label={t('label')}>
      {page > 1 ? (
        <Link className={styles.step} href={href(page - 1)} rel="prev">
          {t('previous')}
        </Link>
      ) : (
        <span className={styles.step} aria-hidden="true" />
      )}
      <ol className={styles.pages}>
        {around.map((n, i) => (
          <li key={n} className={i > 0 && n - around[i - 1]! > 1 ? styles.gap : undefined}>
            <Link href={href(n)} aria-current={n === page ? 'page' : undefined} aria-label={t('page', { n: formatCount(n, locale) })}>
              {formatCount(n, locale)}
            </Link>
          </li>
        ))}
      </ol>
      {page < pages ? (
        <Link className={styles.step} href={href(page + 1)} rel="next">
          {t('next')}
        </Link>
      ) : (
        <span className={styles.step} aria-hidden="true" />
      )}
    </nav>
  );
}
