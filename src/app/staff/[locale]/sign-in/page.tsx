import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { hasStaffSession, staffLocale } from '../../_lib/auth';
import { staffPageTitle } from '../../_lib/metadata';
import styles from '../staff.module.css';

interface Props {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ error?: string; next?: string; signedOut?: string; wait?: string }>;
}

export const dynamic = 'force-dynamic';

export const generateMetadata = staffPageTitle('Staff.signIn');

/**
 * The admin token is typed here once and posted to /staff/api/sign-in, which answers with the
 * session cookie; the token is never put in an address or in the browser's storage.
 */
export default async function SignInPage({ params, searchParams }: Props) {
  const locale = staffLocale((await params).locale);
  const { error, next, signedOut, wait } = await searchParams;
  if (await hasStaffSession()) redirect(`/staff/${locale}`);
  const t = await getTranslations({ locale, namespace: 'Staff.signIn' });
  // Over the wrong-token limit: minutes to wait, as the sign-in handler computed them (1 to 60).
  const minutes = Math.min(60, Math.max(1, Math.floor(Number(wait)) || 15));
  const message = error === 'token' ? t('wrongToken') : error === 'origin' ? t('wrongOrigin') : error === 'tooMany' ? t('tooMany', { minutes }) : null;

  return (
    <section className={styles.signIn} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title" className={styles.title}>
        {t('title')}
      </h1>
      <p className={styles.lead}>{t('lead')}</p>
      {signedOut && !message && (
        <p className={styles.notice} role="status">
          {signedOut === 'everywhere' ? t('signedOutEverywhere') : t('signedOut')}
        </p>
      )}
      {message && (
        <p className={styles.error} role="alert" id="sign-in-error">
          {message}
        </p>
      )}
      <form method="post" action="/staff/api/sign-in" className={styles.form}>
        <input type="hidden" name="locale" value={locale} />
        {next && <input type="hidden" name="next" value={next} />}
        <div className={styles.field}>
          <label htmlFor="token">{t('token')}</label>
          <input
            id="token"
            name="token"
            type="password"
            required
            autoComplete="current-password"
            autoFocus
            spellCheck={false}
            aria-describedby={message ? 'token-hint sign-in-error' : 'token-hint'}
            aria-invalid={message ? true : undefined}
          />
          <p id="token-hint" className={styles.hint}>
            {t('tokenHint')}
          </p>
        </div>
        <button type="submit" className={styles.primaryButton}>
          {t('submit')}
        </button>
      </form>
    </section>
  );
}
