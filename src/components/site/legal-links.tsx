import type { ReactNode } from 'react';
import { useTranslations } from 'next-intl';
import { Link } from '@/i18n/navigation';
import { pagePath } from '@/shared/paths';
import styles from './legal-links.module.css';

export interface LegalLinksProps {
  /** `order`: a reproduction; `custom`: a custom painting (mentions the sketch approval and the customer's photo). */
  kind?: 'order' | 'custom';
  className?: string;
}

/**
 * The sentence under an order button: ordering accepts the terms of sale, and the privacy notice
 * says how we handle the customer's data, with links to both in the visitor's language. Works in
 * server and client components alike (no server-only imports).
 */
export function LegalLinks({ kind = 'order', className }: LegalLinksProps) {
  const t = useTranslations('Legal.orderNotice');
  const tags = {
    terms: (chunks: ReactNode) => <Link href={pagePath.terms()}>{chunks}</Link>,
    privacy: (chunks: ReactNode) => <Link href={pagePath.privacy()}>{chunks}</Link>,
  };
  return <p className={[styles.notice, className].filter(Boolean).join(' ')}>{kind === 'custom' ? t.rich('custom', tags) : t.rich('order', tags)}</p>;
}
