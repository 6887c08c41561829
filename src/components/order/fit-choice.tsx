'use client';

import { useTranslations } from 'next-intl';
import { FIT_CHOICE_THRESHOLD, proportionGap, fits, type Fit } from '@/shared/canvas';
import { CanvasFit } from './canvas-fit';
import styles from './order.module.css';

interface Props {
  idPrefix: string;
  /** The work's width / height. */
  ratio: number;
  canvas: { widthCm: number; heightCm: number };
  imageSrc: string;
  value: Fit;
  onChange: (fit: Fit) => void;
}

/** Whether a work on this canvas is different enough in shape for the shopper to choose. */
export const fitMatters = (ratio: number | null, canvas: { widthCm: number; heightCm: number }) => ratio != null && proportionGap(ratio, canvas) > FIT_CHOICE_THRESHOLD;

/**
 * Where the painting's proportions differ from the canvas: keep the whole composition (the
 * painter extends the background) or fill the canvas (the edges are cropped). Each choice draws
 * the work on a canvas of the chosen size, so the shopper sees what they will receive.
 */
export function FitChoice({ idPrefix, ratio, canvas, imageSrc, value, onChange }: Props) {
  const t = useTranslations('OrderForm.fit');
  return (
    <fieldset className={styles.group}>
      <legend className={styles.legend}>{t('legend')}</legend>
      <p className={styles.fitLead}>{t('lead', { percent: Math.round(proportionGap(ratio, canvas) * 100) / 100 })}</p>
      <div className={styles.fitOptions}>
        {fits.map((fit) => (
          <label key={fit} className={styles.option} data-testid={`fit-${fit}`}>
            <input type="radio" name={`${idPrefix}-fit`} value={fit} checked={fit === value} onChange={() => onChange(fit)} className={styles.radio} />
            <CanvasFit imageSrc={imageSrc} ratio={ratio} canvas={canvas} fit={fit} className={styles.choiceFit} />
            <span className={styles.optionName}>{t(`${fit}.name`)}</span>
            <span className={styles.optionHint}>{t(`${fit}.description`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
