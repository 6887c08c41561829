'use client';

import { useSearchParams } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { ButtonLink } from '@/components/ui/button';
import { Link } from '@/i18n/navigation';
import { localizedPath } from '@/i18n/routing';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import { trpc } from '@/trpc/react';
import { SignInButton } from './sign-in';
import { useAccount } from './use-favorites';
import styles from './favorites.module.css';

/**
 * The sign-in page's card: the Google button (back to `callbackUrl`, else the favorites), what
 * went wrong when NextAuth sent the shopper here with `?error=`, or who is signed in already.
 */
export function SignInPanel() {
  const t = useTranslations('Account');
  const locale = useLocale() as Locale;
  const query = useSearchParams();
  const { status, user } = useAccount();
  const config = trpc.account.config.useQuery({}, { staleTime: Infinity });
  const failed = query.has('error');
  // NextAuth itself only redirects back within the shop; a foreign address is not even offered.
  const asked = query.get('callbackUrl');
  const callbackUrl = asked && asked.startsWith('/') && !asked.startsWith('//') ? asked : undefined;

  return (
    <div className={styles.signInCard}>
      {failed ? (
        <div role="alert" className={styles.signInError}>
          <h2>{t('errorTitle')}</h2>
          <p>{t('error')}</p>
        </div>
      ) : null}
      {status === 'signedIn' && user ? (
        <>
          <p>{t('alreadySignedIn', { email: user.email ?? user.name ?? '' })}</p>
          <ButtonLink href={pagePath.favorites()} variant="primary">
            {t('goToFavorites')}
          </ButtonLink>
        </>
      ) : status === 'signedOut' && config.data ? (
        config.data.signInEnabled ? (
          <SignInButton variant="primary" failedText={t('signInFailed')} callbackUrl={callbackUrl ?? localizedPath(locale, pagePath.favorites())}>
            {t('signInWithGoogle')}
          </SignInButton>
        ) : (
          <p>{t('unavailable')}</p>
        )
      ) : (
        <span className={styles.signInPlaceholder} aria-hidden="true" />
      )}
      <p className={styles.signInNote}>
        <Link href={pagePath.orderLookup()}>{t('orders')}</Link>
      </p>
    </div>
  );
}
