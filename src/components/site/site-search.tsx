import { useTranslations } from 'next-intl';
import { localizedPath } from '@/i18n/routing';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import { SearchCombobox } from './search-combobox';
import styles from './site.module.css';

/**
 * The search box in every page's header: a plain GET form to the artworks grid, so it works before
 * (and without) JavaScript and the results have an address. With JavaScript its input is a
 * combobox that suggests works and artists while typing (search-combobox.tsx).
 */
export function SiteSearch({ locale, defaultValue }: { locale: Locale; defaultValue?: string }) {
  const t = useTranslations('Nav');
  return (
    <form className={styles.search} role="search" action={localizedPath(locale, pagePath.artworks())} method="get">
      <label className="visually-hidden" htmlFor="site-search">
        {t('searchLabel')}
      </label>
      <SearchCombobox
        id="site-search"
        locale={locale}
        placeholder={t('searchPlaceholder')}
        defaultValue={defaultValue}
        artworkBase={localizedPath(locale, pagePath.artwork(''))}
        artistBase={localizedPath(locale, pagePath.artist(''))}
        kindLabels={{ artwork: t('suggestionArtwork'), artist: t('suggestionArtist') }}
        listLabel={t('suggestionsLabel')}
      />
      <button type="submit">{t('searchButton')}</button>
    </form>
  );
}
