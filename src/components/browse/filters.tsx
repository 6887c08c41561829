import { useLocale, useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Link } from '@/i18n/navigation';
import { localizedPath } from '@/i18n/routing';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import type { FilterOption } from './catalog-lists';
import { FilterForm } from './filter-form';
import { filterKeys, without, type ActiveFilter, type FilterKey, type GridQuery } from './query';
import styles from './browse.module.css';

interface Props {
  query: GridQuery;
  options: Record<FilterKey, FilterOption[]>;
  active: ActiveFilter[];
}

/** Search words and filter selects as one GET form, then the active filters as removable chips. */
export function GridFilters({ query, options, active }: Props) {
  const t = useTranslations('Browse');
  const locale = useLocale() as Locale;
  const byName = (a: FilterOption, b: FilterOption) => a.name.localeCompare(b.name, locale);
  return (
    <div className={styles.filters}>
      <FilterForm action={localizedPath(locale, pagePath.artworks())} className={styles.filterForm} label={t('formLabel')}>
        <div className={styles.searchRow}>
          <TextField
            id="grid-q"
            name="q"
            type="search"
            label={t('searchLabel')}
            placeholder={t('searchPlaceholder')}
            defaultValue={query.q ?? ''}
            maxLength={200}
            autoComplete="off"
          />
          <Button type="submit" variant="primary" className={styles.searchSubmit}>
            {t('submit')}
          </Button>
        </div>
        {/* On a phone the five lists wait behind "Filters" so the works come first; from 40rem they are always shown (CSS). */}
        <details className={styles.filterDisclosure}>
          <summary className={styles.filterSummary}>{t('filtersToggle', { count: active.length })}</summary>
          <fieldset className={styles.selects}>
            <legend className="visually-hidden">{t('filtersLegend')}</legend>
            {filterKeys.map((key) => {
              const current = active.find((filter) => filter.key === key);
              const list = [...options[key]].sort(byName);
              // A value reached from a link (a small museum) may not be among the most common: keep it selectable.
              if (current && !list.some((option) => option.slug === current.slug)) list.unshift({ slug: current.slug, name: current.name, count: 0 });
              if (list.length === 0) return null;
              return (
                <SelectField key={key} id={`grid-${key}`} name={key} label={t(`filter.${key}`)} defaultValue={current?.slug ?? ''}>
                  <option value="">{t(`any.${key}`)}</option>
                  {list.map((option) => (
                    <option key={option.slug} value={option.slug}>
                      {option.count ? t('optionWithCount', { name: option.name, count: option.count }) : option.name}
                    </option>
                  ))}
                </SelectField>
              );
            })}
          </fieldset>
        </details>
      </FilterForm>

      {active.length > 0 ? (
        <div className={styles.chipsRow}>
          <p className={styles.chipsLabel} id="active-filters">
            {t('activeFilters')}
          </p>
          <ul className={styles.chips} aria-labelledby="active-filters">
            {active.map((filter) => (
              <li key={filter.key}>
                <Link
                  className={styles.chip}
                  href={{ pathname: pagePath.artworks(), query: without(query, filter.key) }}
                  aria-label={t('removeFilter', { filter: t(`filter.${filter.key}`), name: filter.name })}
                >
                  <span className={styles.chipKind}>{t(`filter.${filter.key}`)}</span>
                  <span>{filter.name}</span>
                  <span className={styles.chipClose} aria-hidden="true" />
                </Link>
              </li>
            ))}
          </ul>
          {active.length > 1 ? (
            <Link className={styles.clearAll} href={{ pathname: pagePath.artworks(), query: without(query, ...filterKeys) }}>
              {t('clearFilters')}
            </Link>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
