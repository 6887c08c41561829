import { getTranslations } from 'next-intl/server';
import { SignInButton } from '@/components/favorites/sign-in';
import { ButtonLink } from '@/components/ui/button';
import { Link } from '@/i18n/navigation';
import { formatDate, formatUsd } from '@/lib/format';
import type { AccountUser } from '@/server/accounts/service';
import { MAX_ACCOUNT_ORDERS } from '@/server/accounts/orders';
import { MAX_SLUGS } from '@/server/catalog/schema';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import { serverApi, serverApiAs } from '@/trpc/server';
import styles from './my-orders.module.css';

/**
 * "My orders": the signed-in account's orders, newest first (`account.orders`, the procedure of
 * GET /v1/account/orders), each a link to its page, which opens for its owner without the e-mail.
 * A server component: the list is the session's, read on the server with the page.
 */
export async function MyOrders({ user, locale }: { user: AccountUser; locale: Locale }) {
  const t = await getTranslations('MyOrders');
  const orders = await getTranslations('Orders');
  const { orders: list } = await serverApiAs(user).account.orders({});
  if (list.length === 0) {
    return (
      <div className={styles.empty} data-my-orders-empty>
        <h2>{t('emptyTitle')}</h2>
        <p>{t('emptyBody')}</p>
        <ButtonLink href={pagePath.artworks()} variant="primary">
          {t('browse')}
        </ButtonLink>
      </div>
    );
  }

  const titles = await titlesOf([...new Set(list.flatMap((o) => (o.artworkSlug ? [o.artworkSlug] : [])))], locale);
  return (
    <>
      <ul className={styles.list} aria-label={t('listLabel')}>
        {list.map((order) => {
          // A work no longer published has no card: the order is still a reproduction.
          const title = order.artworkSlug ? (titles.get(order.artworkSlug) ?? orders('order.reproduction')) : orders('order.custom');
          return (
            <li key={order.code}>
              <Link href={pagePath.order(order.code)} className={styles.order} data-my-order={order.code}>
                <span className={styles.title}>{title}</span>
                <span className={styles.status} data-status={order.status}>
                  {orders(`status.${order.status}.name`)}
                </span>
                <span className={styles.meta}>
                  {t('order', { code: order.code })} · {orders('order.placedOn', { date: formatDate(order.createdAt, locale) })}
                </span>
                <span className={styles.total}>{formatUsd(order.total, locale)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      {list.length >= MAX_ACCOUNT_ORDERS ? <p className={styles.note}>{t('capped', { count: list.length })}</p> : null}
    </>
  );
}

/** The works' titles in the page's language, from the catalog's cards (at most MAX_SLUGS a call). */
async function titlesOf(slugs: string[], locale: Locale): Promise<Map<string, string>> {
  const chunks = Array.from({ length: Math.ceil(slugs.length / MAX_SLUGS) }, (_, i) => slugs.slice(i * MAX_SLUGS, (i + 1) * MAX_SLUGS));
  const answers = await Promise.all(chunks.map((chunk) => serverApi().catalog.artworksBySlugs({ slugs: chunk.join(','), locale })));
  return new Map(answers.flatMap((answer) => answer.items.map((card) => [card.slug, card.title] as const)));
}

/** Signed out: what the page is for, sign-in (when the shop offers it), and the lookup by code that needs no account. */
export async function SignInForOrders() {
  const t = await getTranslations('MyOrders');
  const account = await getTranslations('Account');
  const { signInEnabled } = await serverApi().account.config({});
  return (
    <div className={styles.empty} data-my-orders-signed-out>
      <h2>{t('signInTitle')}</h2>
      <p>{t('signInBody')}</p>
      <div className={styles.actions}>
        {signInEnabled ? (
          <SignInButton variant="primary" failedText={account('signInFailed')}>
            {account('signInWithGoogle')}
          </SignInButton>
        ) : null}
        <ButtonLink href={pagePath.orderLookup()} variant={signInEnabled ? 'secondary' : 'primary'}>
          {t('lookUp')}
        </ButtonLink>
      </div>
    </div>
  );
}
