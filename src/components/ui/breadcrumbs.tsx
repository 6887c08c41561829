import { useLocale, useTranslations } from 'next-intl';
import { JsonLd } from '@/components/json-ld';
import { Link } from '@/i18n/navigation';
import { localizedPath } from '@/i18n/routing';
import { env, publicBaseUrl } from '@/server/env';
import type { Locale } from '@/shared/locales';
import styles from './breadcrumbs.module.css';

export interface Crumb {
  name: string;
  /** Address without locale; the last crumb (the page itself) has none. */
  path?: string;
}

/** Where this page sits (Home › Artists › Claude Monet), for people and, as BreadcrumbList, for search engines. Server only. */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  const t = useTranslations('Common');
  const locale = useLocale() as Locale;
  const base = publicBaseUrl(env()).replace(/\/$/, '');
  const all: Crumb[] = [{ name: t('home'), path: '/' }, ...items];
  return (
    <>
      <nav className={styles.breadcrumbs} aria-label={t('breadcrumbs')}>
        <ol>
          {all.map((crumb, i) => (
            <li key={`${crumb.path ?? ''}-${i}`}>
              {crumb.path && i < all.length - 1 ? <Link href={crumb.path}>{crumb.name}</Link> : <span aria-current="page">{crumb.name}</span>}
            </li>
          ))}
        </ol>
      </nav>
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'BreadcrumbList',
          itemListElement: all.map((crumb, i) => ({
            '@type': 'ListItem',
            position: i + 1,
            name: crumb.name,
            ...(crumb.path ? { item: `${base}${localizedPath(locale, crumb.path)}` } : {}),
          })),
        }}
      />
    </>
  );
}
