'use client';

import { useLocale } from 'next-intl';
import { numberFormat } from '@/lib/format';
import styles from './wall-preview.module.css';

/** A one-metre bar drawn at the scene's scale, so the shopper can read the scale at a glance. */
export function ScaleBar() {
  const locale = useLocale();
  const metre = numberFormat(locale, { style: 'unit', unit: 'meter' }).format(1);
  return (
    <span className={styles.scaleBar} aria-hidden="true">
      <span className={styles.scaleBarLine} />
      <span className={styles.scaleBarText}>{metre}</span>
    </span>
  );
}
