import { useTranslations } from 'next-intl';
import { localizedPath } from '@/i18n/routing';
import { pagePath } from '@/server/seo/paths';
import type { Locale } from '@/server/shared/locales';
import styles from './site.module.css';

/**
 * The search box in every page's header: a plain GET form to the artworks grid, so it works before
 * (and without) JavaScript and the results have an address.
 */
export function SiteSearch({ locale, defaultValue }: { locale: Locale; defaultValue?: string }) {
  const t = useTranslations('Nav');
  return (
    <form className={styles.search} role="search" action={localizedPath(locale, pagePath.artworks())} method="get">
      <label className="visually-hidden" htmlFor="site-search">
        {t('searchLabel')}
      </label>
      <input id="site-search" name="q" type="search" placeholder={t('searchPlaceholder')} defaultValue={defaultValue} maxLength={200} autoComplete="off" />
      <button type="submit">{t('searchButton')}</button>
    </form>
  );
}
