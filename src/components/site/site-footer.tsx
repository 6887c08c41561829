import { getTranslations } from 'next-intl/server';
import { Link } from '@/i18n/navigation';
import { env } from '@/server/env';
import { shopIdentity } from '@/server/shop/identity';
import { shopPagePath, shopPages } from '@/server/shop/pages';
import { pagePath } from '@/shared/paths';
import styles from './site-footer.module.css';

/** Every page's footer: the shop's name, the finished paintings shown, the information pages, image credits, and the demonstration note when no identity is configured. */
export async function SiteFooter() {
  const [t, legal, showcase] = await Promise.all([getTranslations('Layout'), getTranslations('Legal'), getTranslations('Showcase')]);
  const identity = shopIdentity(env());
  const year = new Date().getUTCFullYear();
  return (
    <footer className="site-footer">
      <div className={`container site-footer__inner ${styles.inner}`}>
        <div className={styles.about}>
          <p className="site-footer__name">{identity.name}</p>
          <p>{t('footerTagline')}</p>
          {identity.demo ? <p className={styles.demo}>{legal('footer.demo')}</p> : null}
        </div>
        <nav className={styles.nav} aria-label={legal('footer.label')}>
          <ul>
            <li>
              <Link href={pagePath.showcase()}>{showcase('title')}</Link>
            </li>
            {shopPages.map((page) => (
              <li key={page}>
                <Link href={shopPagePath(page)}>{legal(`nav.${page}`)}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className={`site-footer__meta ${styles.meta}`}>
          <p>{t('footerImages')}</p>
          <p>{t('footerRights', { year, name: identity.name })}</p>
        </div>
      </div>
    </footer>
  );
}
