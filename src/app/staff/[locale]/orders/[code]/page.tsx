import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { db } from '@/server/db/client';
import { DomainError } from '@/server/errors';
import { orderForStaff, type OrderForStaff } from '@/server/orders/board';
import { normalizeOrderCode } from '@/server/orders/code';
import type { Locale } from '@/server/shared/locales';
import { requireStaff, staffLocale } from '../../../_lib/auth';
import { count, dateTime, money } from '../../../_lib/format';
import styles from '../../staff.module.css';
import { OrderActions } from './order-actions';

interface Props {
  params: Promise<{ locale: string; code: string }>;
}

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { code } = await params;
  const locale = staffLocale((await params).locale);
  const t = await getTranslations({ locale, namespace: 'Staff.order' });
  return { title: t('title', { code: normalizeOrderCode(code).slice(0, 20) }) };
}

async function load(code: string, locale: Locale): Promise<OrderForStaff> {
  try {
    return await orderForStaff(db(), code, locale);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') notFound();
    throw error;
  }
}

/** Everything about one order, its history, and what may happen to it next. */
export default async function OrderPage({ params }: Props) {
  const { code } = await params;
  const locale = staffLocale((await params).locale);
  await requireStaff(locale, `/staff/${locale}/orders/${encodeURIComponent(code)}`);
  if (code.length > 20) notFound();
  const order = await load(code, locale);
  const [t, ts] = await Promise.all([getTranslations({ locale, namespace: 'Staff.order' }), getTranslations({ locale, namespace: 'Staff' })]);
  const custom = order.kind === 'custom';

  return (
    <div className={styles.page}>
      <p>
        <a href={`/staff/${locale}`} className={styles.quietLink}>
          ← {t('back')}
        </a>
      </p>
      <div className={styles.pageHead}>
        <h1 className={styles.title}>
          {t('title', { code: order.code })}{' '}
          <span className={styles.status} data-status={order.status} data-testid="order-status">
            {ts(`status.${order.status}`)}
          </span>
        </h1>
        <p className={styles.sub}>{t('placed', { date: dateTime(order.createdAt, locale), locale: order.locale.toUpperCase() })}</p>
      </div>

      <div className={styles.orderGrid}>
        <div className={styles.orderMain}>
          <section className={styles.panel} aria-labelledby="item-title">
            <h2 id="item-title">{t('item')}</h2>
            <dl className={styles.facts}>
              <dt>{t('kind')}</dt>
              <dd>{ts(`kind.${order.kind}`)}</dd>
              {custom ? (
                <>
                  <dt>{t('style')}</dt>
                  <dd>{ts(`style.${order.style ?? 'classic'}`)}</dd>
                  <dt>{t('subjects')}</dt>
                  <dd>{count(order.subjects ?? 1, locale)}</dd>
                  <dt>{t('sketch')}</dt>
                  <dd data-testid="sketch-status">{order.sketchStatus ? ts(`sketch.${order.sketchStatus}`) : t('sketchNotYet')}</dd>
                </>
              ) : (
                <>
                  <dt>{t('artwork')}</dt>
                  <dd>
                    {order.artworkTitle ?? order.artworkSlug}
                    {order.artworkSlug && (
                      <>
                        {' '}
                        <a href={`/${locale}/artworks/${order.artworkSlug}`} className={styles.quietLink}>
                          {t('artworkPage')}
                        </a>
                      </>
                    )}
                  </dd>
                </>
              )}
              <dt>{t('size')}</dt>
              <dd>{t('sizeValue', { size: order.size.replace('x', ' × ') })}</dd>
              <dt>{t('frame')}</dt>
              <dd>{ts(`frame.${order.frame}`)}</dd>
              <dt>{t('total')}</dt>
              <dd>{money(order.total, locale)}</dd>
              <dt>{t('tracking')}</dt>
              <dd data-testid="tracking-number">{order.trackingNumber ?? t('none')}</dd>
            </dl>
            {order.notes && (
              <>
                <h3 className={styles.subhead}>{t('customerNotes')}</h3>
                <p className={styles.quote}>{order.notes}</p>
              </>
            )}
          </section>

          {custom && (
            <section className={styles.panel} aria-labelledby="photo-title">
              <h2 id="photo-title">{t('photo')}</h2>
              {order.photo ? (
                <a href={`/staff/api/photos/${order.photo.id}`} className={styles.photoLink}>
                  {/* eslint-disable-next-line @next/next/no-img-element -- a private photo from a cookie-checked route; next/image would cache it */}
                  <img src={`/staff/api/photos/${order.photo.id}`} alt={t('photoAlt', { name: order.customer.name })} className={styles.photo} />
                  <span className={styles.sub}>{t('photoOpen')}</span>
                </a>
              ) : (
                <p>{t('photoMissing')}</p>
              )}
            </section>
          )}

          <section className={styles.panel} aria-labelledby="customer-title">
            <h2 id="customer-title">{t('customer')}</h2>
            <dl className={styles.facts}>
              <dt>{t('name')}</dt>
              <dd>{order.customer.name}</dd>
              <dt>{t('email')}</dt>
              <dd>
                <a href={`mailto:${order.customer.email}`}>{order.customer.email}</a>
              </dd>
              {order.customer.phone && (
                <>
                  <dt>{t('phone')}</dt>
                  <dd>{order.customer.phone}</dd>
                </>
              )}
              <dt>{t('address')}</dt>
              <dd className={styles.address}>
                {order.customer.address}
                {'\n'}
                {order.customer.postalCode} {order.customer.city}
                {'\n'}
                {order.customer.country}
              </dd>
            </dl>
          </section>
        </div>

        <div className={styles.orderSide}>
          <OrderActions
            locale={locale}
            order={{ code: order.code, kind: order.kind, status: order.status, version: order.version, moves: order.moves, trackingNumber: order.trackingNumber, sketchStatus: order.sketchStatus }}
          />

          <section className={styles.panel} aria-labelledby="history-title">
            <h2 id="history-title">{t('history')}</h2>
            <ol className={styles.history} data-testid="history">
              {order.events.map((event, index) => (
                <li key={index}>
                  <span className={styles.status} data-status={event.status}>
                    {ts(`status.${event.status}`)}
                  </span>{' '}
                  <time dateTime={event.at}>{dateTime(event.at, locale)}</time>
                  <span className={styles.sub}>{ts(`actor.${event.actor}`)}</span>
                  {event.note && <p className={styles.quote}>{event.note}</p>}
                </li>
              ))}
            </ol>
          </section>
        </div>
      </div>
    </div>
  );
}
