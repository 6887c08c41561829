'use client';

import { useTranslations } from 'next-intl';
import { Link } from '@/i18n/navigation';
import { pagePath } from '@/shared/paths';
import styles from './order.module.css';

/** The customer's optional permission to show the finished painting (never their photo or name). */
export function ShowcaseConsent({ id, checked, onChange }: { id: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const t = useTranslations('OrderForm.showcase');
  return (
    <div className={styles.consent}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={`${id}-hint`} />
      <label htmlFor={id}>{t('label')}</label>
      <p id={`${id}-hint`} className={styles.consentHint}>
        {t.rich('hint', { gallery: (chunks) => <Link href={pagePath.showcase()}>{chunks}</Link> })}
      </p>
    </div>
  );
}
