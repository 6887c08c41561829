import { getTranslations } from 'next-intl/server';
import { db } from '@/server/db/client';
import { listPartnerKeys } from '@/server/partners/service';
import { requireStaff, staffLocale } from '../../_lib/auth';
import { staffPageTitle } from '../../_lib/metadata';
import { count, dateTime } from '../../_lib/format';
import styles from '../staff.module.css';
import { NewPartnerKey, RevokePartnerKey } from './partner-keys';

interface Props {
  params: Promise<{ locale: string }>;
}

export const dynamic = 'force-dynamic';

export const generateMetadata = staffPageTitle('Staff.partners');

/**
 * Partner keys (docs/security.md "Partner keys"): make one (shown once), see each key's use this
 * hour and in all, revoke one. The list is read here; making and revoking go through the
 * dashboard's tRPC and read the list again.
 */
export default async function PartnersPage({ params }: Props) {
  const locale = staffLocale((await params).locale);
  await requireStaff(locale, `/staff/${locale}/partners`);
  const t = await getTranslations({ locale, namespace: 'Staff.partners' });
  const keys = await listPartnerKeys(db());
  const pair = (thisHour: number, total: number) => t('list.pair', { thisHour: count(thisHour, locale), total: count(total, locale) });

  return (
    <div className={styles.page}>
      <div className={styles.pageHead}>
        <h1 className={styles.title}>{t('title')}</h1>
        <p className={styles.lead}>{t('lead')}</p>
      </div>

      <div className={styles.orderGrid}>
        <section aria-labelledby="keys-title" className={`${styles.panel} ${styles.orderMain}`}>
          <h2 id="keys-title">{t('list.title')}</h2>
          {keys.length === 0 ? (
            <p className={styles.empty}>{t('list.empty')}</p>
          ) : (
            <table className={styles.board} data-testid="partner-keys">
              <caption className={styles.visuallyHidden}>{t('list.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('list.name')}</th>
                  <th scope="col">{t('list.created')}</th>
                  <th scope="col">{t('list.lastUsed')}</th>
                  <th scope="col">{t('list.orders')}</th>
                  <th scope="col">{t('list.requests')}</th>
                  <th scope="col">{t('list.status')}</th>
                  <th scope="col">
                    <span className={styles.visuallyHidden}>{t('list.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr key={key.id} data-partner={key.name}>
                    <th scope="row" data-label={t('list.name')}>
                      <div>
                        {key.name}
                        <span className={styles.sub}>
                          <code className={styles.code}>{key.prefix}…</code>
                        </span>
                        <span className={styles.sub}>{t('list.allowances', { orders: count(key.ordersPerHour, locale), uploads: count(key.uploadsPerHour, locale) })}</span>
                      </div>
                    </th>
                    <td data-label={t('list.created')}>{dateTime(key.createdAt, locale)}</td>
                    <td data-label={t('list.lastUsed')}>{key.lastUsedAt ? dateTime(key.lastUsedAt, locale) : t('list.never')}</td>
                    <td data-label={t('list.orders')} className={styles.number}>
                      {pair(key.ordersThisHour, key.ordersTotal)}
                    </td>
                    <td data-label={t('list.requests')} className={styles.number}>
                      {pair(key.requestsThisHour, key.requestsTotal)}
                    </td>
                    <td data-label={t('list.status')}>
                      <span className={styles.status} data-key-status={key.revokedAt ? 'revoked' : 'live'}>
                        {key.revokedAt ? t('list.revoked', { date: dateTime(key.revokedAt, locale) }) : t('list.live')}
                      </span>
                    </td>
                    <td data-label={t('list.actions')}>
                      <RevokePartnerKey id={key.id} name={key.name} revoked={Boolean(key.revokedAt)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className={styles.hint}>{t('list.note')}</p>
        </section>

        <div className={styles.orderSide}>
          <NewPartnerKey />
        </div>
      </div>
    </div>
  );
}
