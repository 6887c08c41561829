import { getTranslations } from 'next-intl/server';
import { commonsFilePage } from '@/shared/images';
import type { Locale } from '@/shared/locales';
import styles from './artwork-page.module.css';

/**
 * Where the picture comes from: its file page on Wikimedia Commons (author, licence, history), small,
 * under the image. Named by its visible words first, then the work (WCAG 2.5.3).
 */
export async function ImageSource({ file, title, locale }: { file: string; title: string; locale: Locale }) {
  const t = await getTranslations({ locale, namespace: 'Artwork.imageSource' });
  return (
    <p className={styles.imageSource}>
      <a href={commonsFilePage(file)} aria-label={t('label', { title })}>
        {t('text')}
      </a>
    </p>
  );
}
