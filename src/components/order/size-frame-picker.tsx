'use client';

import { useLocale, useTranslations } from 'next-intl';
import { formatSize, formatUsd } from '@/lib/format';
import { frames, sizes, type Frame, type Size } from '@/shared/canvas';
import type { OrderKind } from '@/shared/orders';
import { priceOf } from '@/shared/prices';
import type { PriceTableData } from './price';
import { canvasCm } from './sizes';
import { usePriceTable } from './use-price';
import styles from './order.module.css';

interface Props {
  size: Size;
  frame: Frame;
  onChange: (size: Size, frame: Frame) => void;
  /** Prices shown are those of this kind of order (custom paintings cost more). */
  kind?: OrderKind;
  /** Custom paintings: the number of subjects, which changes every price. */
  subjects?: number;
  /** Width / height of the painting, so sizes read the way it will be painted (70 × 50 for a landscape). */
  ratio?: number | null;
  /** The price table read on the server, so prices are there on first paint. */
  initialPrices?: PriceTableData;
  idPrefix?: string;
}

/**
 * The four sizes and three frames as two radio groups (arrow keys move within a group), each option
 * with the price it would make given the other choice, from the server's own table.
 */
export function SizeFramePicker({ size, frame, onChange, kind = 'reproduction', subjects, ratio, initialPrices, idPrefix = 'order' }: Props) {
  const t = useTranslations('OrderForm');
  const locale = useLocale();
  const { table } = usePriceTable(initialPrices);
  const price = (s: Size, f: Frame) => {
    const cents = table ? priceOf({ kind, size: s, frame: f, subjects }, table) : null;
    return cents == null ? '—' : formatUsd(cents, locale);
  };

  return (
    <div className={styles.picker}>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>{t('sizeLegend')}</legend>
        <div className={styles.options} data-kind="size">
          {sizes.map((s) => {
            const { widthCm, heightCm } = canvasCm(s, ratio);
            return (
              <label key={s} className={styles.option}>
                <input type="radio" name={`${idPrefix}-size`} value={s} checked={s === size} onChange={() => onChange(s, frame)} className={styles.radio} />
                <span className={styles.optionName}>{formatSize(widthCm, heightCm, locale)}</span>
                <span className={styles.optionHint}>{t(`sizeNames.${s}`)}</span>
                <span className={styles.optionPrice}>{price(s, frame)}</span>
              </label>
            );
          })}
        </div>
      </fieldset>

      <fieldset className={styles.group}>
        <legend className={styles.legend}>{t('frameLegend')}</legend>
        <div className={styles.options} data-kind="frame">
          {frames.map((f) => (
            <label key={f} className={styles.option}>
              <input type="radio" name={`${idPrefix}-frame`} value={f} checked={f === frame} onChange={() => onChange(size, f)} className={styles.radio} />
              <span className={styles.optionName}>{t(`frames.${f}.name`)}</span>
              <span className={styles.optionHint}>{t(`frames.${f}.description`)}</span>
              <span className={styles.optionPrice}>{price(size, f)}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
