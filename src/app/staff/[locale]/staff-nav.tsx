'use client';

import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { languageNames, locales } from '@/shared/locales';
import styles from './staff.module.css';

/** The dashboard's sections, its languages (the same page in another language) and sign-out. */
export function StaffNav({ locale, signedIn }: { locale: string; signedIn: boolean }) {
  const t = useTranslations('Staff.nav');
  const pathname = usePathname() ?? `/staff/${locale}`;
  const rest = pathname.split('/').slice(3).join('/');
  const ordersHref = `/staff/${locale}`;
  const catalogHref = `/staff/${locale}/catalog`;
  const partnersHref = `/staff/${locale}/partners`;
  const inCatalog = pathname.startsWith(catalogHref);
  const inPartners = pathname.startsWith(partnersHref);

  return (
    <div className={styles.navBar}>
      {signedIn && (
        <nav aria-label={t('label')}>
          <ul className={styles.navList}>
            <li>
              <a href={ordersHref} className={styles.navLink} aria-current={!inCatalog && !inPartners ? 'page' : undefined}>
                {t('orders')}
              </a>
            </li>
            <li>
              <a href={catalogHref} className={styles.navLink} aria-current={inCatalog ? 'page' : undefined}>
                {t('catalog')}
              </a>
            </li>
            <li>
              <a href={partnersHref} className={styles.navLink} aria-current={inPartners ? 'page' : undefined}>
                {t('partners')}
              </a>
            </li>
          </ul>
        </nav>
      )}
      <details className={styles.languages}>
        <summary>
          <span className={styles.visuallyHidden}>{t('language')}: </span>
          {locale.toUpperCase()}
        </summary>
        <ul>
          {locales.map((l) => (
            <li key={l}>
              <a href={`/staff/${l}${rest ? `/${rest}` : ''}`} lang={l} hrefLang={l} aria-current={l === locale ? 'true' : undefined}>
                {languageNames[l]}
              </a>
            </li>
          ))}
        </ul>
      </details>
      {signedIn && (
        <form method="post" action="/staff/api/sign-out">
          <input type="hidden" name="locale" value={locale} />
          <button type="submit" className={styles.quietButton}>
            {t('signOut')}
          </button>
        </form>
      )}
      {signedIn && (
        // Ends every dashboard's session, this one included (a lost laptop, a colleague who left).
        <form method="post" action="/staff/api/sign-out">
          <input type="hidden" name="locale" value={locale} />
          <input type="hidden" name="scope" value="everywhere" />
          <button type="submit" className={styles.quietButton}>
            {t('signOutEverywhere')}
          </button>
        </form>
      )}
    </div>
  );
}
