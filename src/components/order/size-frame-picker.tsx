'use client';

import type { ReactNode } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { formatSize, formatSizeInches, formatUsd } from '@/lib/format';
import { FIT_NOTE_THRESHOLD, fitOf, frames, proportionGap, sizes, type Fit, type Frame, type Size } from '@/shared/canvas';
import type { OrderKind } from '@/shared/orders';
import { priceOf } from '@/shared/prices';
import { CanvasFit } from './canvas-fit';
import { FinishPicture } from './finish-picture';
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
  /** A reproduction: each size draws how the work meets that canvas with the shopper's fit, and says so past 10 %. */
  fitPreview?: { imageSrc: string; fit: Fit };
  /** Shown between the sizes and the finishes: what depends on the size (a reproduction's fit). */
  afterSizes?: ReactNode;
  idPrefix?: string;
}

/**
 * The four sizes and three frames as two radio groups (arrow keys move within a group), each option
 * with the price it would make given the other choice, from the server's own table.
 */
export function SizeFramePicker({ size, frame, onChange, kind = 'reproduction', subjects, ratio, initialPrices, fitPreview, afterSizes, idPrefix = 'order' }: Props) {
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
            const canvas = canvasCm(s, ratio);
            const { widthCm, heightCm } = canvas;
            const inches = formatSizeInches(widthCm, heightCm, locale);
            const note = fitPreview && ratio != null && proportionGap(ratio, canvas) > FIT_NOTE_THRESHOLD ? fitOf(ratio, canvas, fitPreview.fit).share : null;
            return (
              <label key={s} className={styles.option} data-testid={`size-${s}`}>
                <input type="radio" name={`${idPrefix}-size`} value={s} checked={s === size} onChange={() => onChange(s, frame)} className={styles.radio} />
                {fitPreview && ratio != null ? (
                  <CanvasFit imageSrc={fitPreview.imageSrc} ratio={ratio} canvas={canvas} fit={fitPreview.fit} className={styles.sizeFit} />
                ) : null}
                <span className={styles.optionName}>
                  {formatSize(widthCm, heightCm, locale)}
                  {inches ? <span className={styles.optionInches}> {inches}</span> : null}
                </span>
                <span className={styles.optionHint}>{t(`sizeNames.${s}`)}</span>
                {note != null ? <span className={styles.fitNote}>{t(`fit.note.${fitPreview!.fit}`, { percent: Math.round(note * 100) / 100 })}</span> : null}
                <span className={styles.optionPrice}>{price(s, frame)}</span>
              </label>
            );
          })}
        </div>
      </fieldset>

      {afterSizes}

      <fieldset className={styles.group}>
        <legend className={styles.legend}>{t('frameLegend')}</legend>
        <div className={styles.options} data-kind="frame">
          {frames.map((f) => (
            <label key={f} className={styles.option}>
              <input type="radio" name={`${idPrefix}-frame`} value={f} checked={f === frame} onChange={() => onChange(size, f)} className={styles.radio} />
              <FinishPicture finish={f} />
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
