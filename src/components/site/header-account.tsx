'use client';

import { useTranslations } from 'next-intl';
import { useBasket, useMergeLocalBasket } from '@/components/basket/use-basket';
import { AccountMenu } from '@/components/favorites/account-menu';
import styles from '@/components/favorites/account.module.css';
import { SignInButton } from '@/components/favorites/sign-in';
import { useAccount, useFavorites, useMergeLocalFavorites } from '@/components/favorites/use-favorites';
import { Link } from '@/i18n/navigation';
import { pagePath } from '@/shared/paths';
import { trpc } from '@/trpc/react';

/**
 * The shopper's corner of the header: favorites and the basket (with their counts), order lookup,
 * and sign-in or the account menu. It reads the session in the browser, so the layout around every
 * page stays the same for everyone and pages are still served from cache. It is also where the
 * favorites and basket kept while signed out join the account after sign-in, since it is on every page.
 */
export function HeaderAccount() {
  const nav = useTranslations('Nav');
  const t = useTranslations('Account');
  useMergeLocalFavorites();
  useMergeLocalBasket();
  const { status, user } = useAccount();
  const { slugs } = useFavorites();
  const basket = useBasket();
  // Asked together with the session (one batched request), so the sign-in button does not wait for it.
  const config = trpc.account.config.useQuery({}, { staleTime: Infinity });

  return (
    <ul className={styles.corner}>
      <li>
        <Link href={pagePath.favorites()} data-favorites-link>
          <HeartIcon />
          <span className={styles.linkLabel}>{nav('favorites')}</span>
          {slugs.length > 0 ? (
            <span className={styles.count} data-favorites-count>
              <span className="visually-hidden">(</span>
              {slugs.length}
              <span className="visually-hidden">)</span>
            </span>
          ) : null}
        </Link>
      </li>
      <li>
        <Link href={pagePath.shoppingBasket()} data-basket-link>
          <BasketIcon />
          <span className={styles.linkLabel}>{nav('basket')}</span>
          {basket.entries.length > 0 ? (
            <span className={styles.count} data-basket-count>
              <span className="visually-hidden">(</span>
              {basket.entries.length}
              <span className="visually-hidden">)</span>
            </span>
          ) : null}
        </Link>
      </li>
      {/* On a phone "Your order" is in the menu (layout.tsx), so the corner fits beside it. */}
      <li className={styles.orderLink}>
        <Link href={pagePath.orderLookup()}>{nav('orders')}</Link>
      </li>
      {status === 'signedIn' && user ? (
        <li>
          <AccountMenu user={user} />
        </li>
      ) : status === 'signedOut' && config.data?.signInEnabled ? (
        <li>
          <SignInButton className={styles.signIn} failedText={t('signInFailed')}>
            {t('signIn')}
          </SignInButton>
        </li>
      ) : status === 'loading' || config.isLoading ? (
        // Holds the corner's size while the session is read, so the header does not shift.
        <li aria-hidden="true">
          <span className={styles.placeholder} />
        </li>
      ) : null}
    </ul>
  );
}

/* On a phone the favorites and the basket are icons beside "Menu"; their words stay for screen readers. */

function HeartIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10Z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
    </svg>
  );
}

function BasketIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path d="M5 8h14l-1.2 11.1a1 1 0 0 1-1 .9H7.2a1 1 0 0 1-1-.9L5 8Zm4 0V6.5a3 3 0 0 1 6 0V8" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
    </svg>
  );
}
