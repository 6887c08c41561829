'use client';

import { useTranslations } from 'next-intl';
import { styles as paintingStyles, type Style } from '@/shared/orders';
import css from './custom.module.css';

/** Example pictures: one subject (a sitter by a window) painted in each style, in public/styles/. */
export const styleExample = (style: Style) => `/styles/${style}.svg`;

/**
 * The painting style as radio cards with an example each. Real radio inputs, so arrow keys move
 * between styles and screen readers hear one group; the card is the input's label.
 */
export function StylePicker({ value, onChange }: { value: Style; onChange: (style: Style) => void }) {
  const t = useTranslations('Custom.style');
  return (
    <fieldset className={css.fieldset}>
      <legend className={css.legend}>{t('legend')}</legend>
      <p className={css.fieldsetHint}>{t('hint')}</p>
      <div className={css.styleGrid}>
        {paintingStyles.map((style) => (
          <label key={style} className={css.styleCard} data-checked={value === style || undefined}>
            <input className={`visually-hidden ${css.cardInput}`} type="radio" name="style" value={style} checked={value === style} onChange={() => onChange(style)} />
            {/* eslint-disable-next-line @next/next/no-img-element -- a small static SVG; next/image adds nothing here. */}
            <img className={css.styleImage} src={styleExample(style)} alt="" width={240} height={300} loading="lazy" />
            <span className={css.styleName}>{t(`names.${style}`)}</span>
            <span className={css.styleDescription}>{t(`descriptions.${style}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
