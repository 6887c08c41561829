'use client';

import { useLocale, useTranslations } from 'next-intl';
import { formatCount, formatUsd } from '@/lib/format';
import { subjectLimits } from '@/shared/orders';
import css from './custom.module.css';

/** The limits on subjects the order contract and the database hold too (src/shared/orders.ts). */
export const minSubjects: number = subjectLimits.min;
export const maxSubjects: number = subjectLimits.max;
const choices = Array.from({ length: maxSubjects - minSubjects + 1 }, (_, i) => minSubjects + i);

interface Props {
  value: number;
  onChange: (subjects: number) => void;
  /** What each subject after the first adds, in cents; from the price table when it has arrived. */
  extraSubjectCents: number | null;
}

/** How many people or animals are painted: one radio per count, so each is a large, plain target. */
export function SubjectsPicker({ value, onChange, extraSubjectCents }: Props) {
  const t = useTranslations('Custom.subjects');
  const locale = useLocale();
  return (
    <fieldset className={css.fieldset}>
      <legend className={css.legend}>{t('legend')}</legend>
      <p className={css.fieldsetHint} id="subjects-hint">
        {extraSubjectCents != null ? t('hintPrice', { price: formatUsd(extraSubjectCents, locale), max: maxSubjects }) : t('hint', { max: maxSubjects })}
      </p>
      <div className={css.subjects} aria-describedby="subjects-hint">
        {choices.map((n) => (
          <label key={n} className={css.subjectChip} data-checked={value === n || undefined}>
            <input
              className={`visually-hidden ${css.cardInput}`}
              type="radio"
              name="subjects"
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              aria-label={t('count', { count: n })}
            />
            <span aria-hidden="true">{formatCount(n, locale)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
