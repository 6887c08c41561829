import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { db } from '@/server/db/client';
import { DomainError } from '@/server/errors';
import { orderForStaff, type OrderForStaff } from '@/server/orders/board';
import { canvasOf } from '@/shared/canvas';
import { carrierName, trackingUrl } from '@/shared/carriers';
import type { Locale } from '@/shared/locales';
import { normalizeOrderCode, studioPhotoKindsAt } from '@/shared/orders';
import { requireStaff, staffLocale } from '../../../_lib/auth';
import { count, dateTime, money } from '../../../_lib/format';
import { configuredPayments } from '@/server/integrations/stripe';
import { BasketPaidButton } from './basket-paid-button';
import { OrderActions } from './order-actions';
import { PhotoDrop } from './photo-drop';
import { RefundForm } from './refund-form';
import { ShowcaseButton, type ShowcaseLabels } from './showcase-button';
import styles from '../../staff.module.css';

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
  const [t, ts, tg, tp] = await Promise.all([
    getTranslations({ locale, namespace: 'Staff.order' }),
    getTranslations({ locale, namespace: 'Staff' }),
    getTranslations({ locale, namespace: 'StaffShowcase' }),
    getTranslations({ locale, namespace: 'Staff.payment' }),
  ]);
  const showcaseLabels: ShowcaseLabels = {
    show: tg('show'),
    remove: tg('remove'),
    shown: tg('shown'),
    hidden: tg('hidden'),
    refused: tg('refused'),
    signedOut: tg('signedOut'),
    failed: tg('failed'),
  };
  const left = order.payment.paid - order.payment.refunded;
  const custom = order.kind === 'custom';
  const canvas = canvasOf(order.size, order.orientation);

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
      {order.customerAnswered && (
        <p className={styles.answered} role="status" data-testid="customer-answered">
          {t(`answered.${order.sketchStatus === 'approved' ? 'approved' : 'changes_requested'}`)}
        </p>
      )}

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
                  <dd data-testid="sketch-status">
                    {order.sketchStatus === 'pending' && !order.photos.some((p) => p.kind === 'sketch')
                      ? t('sketchDrawing')
                      : order.sketchStatus
                        ? ts(`sketch.${order.sketchStatus}`)
                        : t('sketchNotYet')}
                  </dd>
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
              <dd data-testid="staff-size">
                {t('sizeValue', { size: `${canvas.widthCm} × ${canvas.heightCm}` })} · {ts(`orientation.${order.orientation}`)}
              </dd>
              {order.fit && (
                <>
                  <dt>{t('fit')}</dt>
                  <dd>{ts(`fit.${order.fit}`)}</dd>
                </>
              )}
              <dt>{t('frame')}</dt>
              <dd>{ts(`frame.${order.frame}`)}</dd>
              <dt>{t('showcase')}</dt>
              <dd>{order.showcaseConsent ? t('showcaseYes') : t('showcaseNo')}</dd>
              <dt>{t('total')}</dt>
              <dd>{money(order.total, locale)}</dd>
              <dt>{t('tracking')}</dt>
              <dd data-testid="tracking-number">
                {order.trackingNumber && order.carrier ? (
                  <>
                    <a href={trackingUrl(order.carrier, order.trackingNumber)!}>{order.trackingNumber}</a> · {carrierName(order.carrier, locale)}
                  </>
                ) : (
                  (order.trackingNumber ?? t('none'))
                )}
              </dd>
            </dl>
            {order.notes && (
              <>
                <h3 className={styles.subhead}>{t('customerNotes')}</h3>
                <p className={styles.quote}>{order.notes}</p>
              </>
            )}
          </section>

          {order.basket && (
            <section className={styles.panel} aria-labelledby="basket-title" data-testid="staff-basket">
              <h2 id="basket-title">{t('basket.title', { code: order.basket.code })}</h2>
              <p className={styles.hint}>{t('basket.intro', { count: order.basket.orders.length, total: money(order.basket.total, locale) })}</p>
              <ul className={styles.refunds}>
                {order.basket.orders.map((sibling) => (
                  <li key={sibling.code} data-testid="basket-order">
                    {sibling.code === order.code ? (
                      <strong aria-current="page">
                        {sibling.code} ({t('basket.thisOrder')})
                      </strong>
                    ) : (
                      <a href={`/staff/${locale}/orders/${sibling.code}`}>{sibling.code}</a>
                    )}{' '}
                    · {sibling.artworkTitle ?? ts(`kind.${sibling.kind}`)} · {money(sibling.total, locale)}{' '}
                    <span className={styles.status} data-status={sibling.status}>
                      {ts(`status.${sibling.status}`)}
                    </span>
                  </li>
                ))}
              </ul>
              {order.basket.notes && (
                <>
                  <h3 className={styles.subhead}>{t('basket.notes')}</h3>
                  <p className={styles.quote}>{order.basket.notes}</p>
                </>
              )}
              {order.basket.orders.some((sibling) => sibling.status === 'pending' && !sibling.paid) && (
                <>
                  <p className={styles.hint}>{t('basket.markPaidHint')}</p>
                  <BasketPaidButton
                    code={order.basket.code}
                    labels={{
                      button: t('basket.markPaid'),
                      saving: t('actions.saving'),
                      saved: t('basket.saved', { codes: '{codes}' }),
                      nothing: t('basket.nothing'),
                      signedOut: t('actions.errors.signedOut'),
                      failed: t('basket.failed'),
                    }}
                  />
                </>
              )}
            </section>
          )}

          <section className={styles.panel} aria-labelledby="photo-title">
            <h2 id="photo-title">{t('photos.title')}</h2>
            {custom && !order.photo && <p>{t('photoMissing')}</p>}
            {order.photos.length > 0 && (
              <ul className={styles.photoGrid} data-testid="staff-photos">
                {order.photos.map((photo) => (
                  <li key={photo.id} data-photo-kind={photo.kind}>
                    <a href={photo.url} className={styles.photoLink} target="_blank" rel="noopener">
                      {/* eslint-disable-next-line @next/next/no-img-element -- a private photo from a cookie-checked route; next/image would cache it */}
                      <img
                        src={photo.url}
                        alt={photo.kind === 'customer' ? t('photoAlt', { name: order.customer.name }) : t(`photos.kinds.${photo.kind}`)}
                        className={styles.photo}
                        loading="lazy"
                      />
                      <span className={styles.sub}>
                        {t(`photos.kinds.${photo.kind}`)} · {dateTime(photo.at, locale)}
                      </span>
                    </a>
                    {photo.kind === 'finished' &&
                      (order.showcaseConsent ? (
                        <div className={styles.showcase} data-testid="showcase">
                          {photo.showcasedAt && <span className={styles.sub}>{tg('since', { date: dateTime(photo.showcasedAt, locale) })}</span>}
                          <ShowcaseButton code={order.code} id={photo.id} showcased={Boolean(photo.showcasedAt)} labels={showcaseLabels} />
                        </div>
                      ) : (
                        <span className={styles.sub}>{tg('noConsent')}</span>
                      ))}
                  </li>
                ))}
              </ul>
            )}
            {studioPhotoKindsAt(order.kind, order.status).length ? (
              <PhotoDrop code={order.code} kind={order.kind} status={order.status} />
            ) : (
              <p className={styles.hint}>{t(`photos.${order.status === 'cancelled' ? 'noneCancelled' : 'noneYet'}`)}</p>
            )}
          </section>

          <section className={styles.panel} aria-labelledby="customer-title">
            <h2 id="customer-title">{t('customer')}</h2>
            <dl className={styles.facts}>
              {order.partner && (
                <>
                  <dt>{t('partner')}</dt>
                  <dd data-testid="order-partner">{order.partner}</dd>
                </>
              )}
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
            order={{
              code: order.code,
              kind: order.kind,
              status: order.status,
              version: order.version,
              moves: order.moves,
              trackingNumber: order.trackingNumber,
              carrier: order.carrier,
              sketchStatus: order.sketchStatus,
              payment: order.payment,
            }}
          />

          <section className={styles.panel} aria-labelledby="payment-title" data-testid="staff-payment" data-payment={order.payment.state}>
            <h2 id="payment-title">
              {tp('title')}{' '}
              <span className={styles.status} data-payment-state={order.payment.state}>
                {tp(`states.${order.payment.state}`)}
              </span>
            </h2>
            {order.payment.disputed && (
              <p className={styles.error} role="status" data-testid="staff-disputed">
                {tp('disputed')}
              </p>
            )}
            {order.payment.processing && <p className={styles.hint}>{tp('processing')}</p>}
            {order.payment.doublePayments > 0 && <p className={styles.answered}>{tp('doublePayments', { count: order.payment.doublePayments })}</p>}
            <dl className={styles.facts}>
              <dt>{tp('paid')}</dt>
              <dd>{money(order.payment.paid, locale)}</dd>
              <dt>{tp('refunded')}</dt>
              <dd data-testid="staff-refunded">{money(order.payment.refunded, locale)}</dd>
            </dl>
            {order.payment.refunds.length > 0 && (
              <>
                <h3 className={styles.subhead}>{tp('refundsTitle')}</h3>
                <ul className={styles.refunds} data-testid="staff-refunds">
                  {order.payment.refunds.map((refund) => (
                    <li key={refund.id}>
                      {money(refund.amount, locale)} · {tp(`methods.${refund.method}`)} · <time dateTime={refund.at}>{dateTime(refund.at, locale)}</time>
                      {refund.note && <span className={styles.sub}>{refund.note}</span>}
                    </li>
                  ))}
                </ul>
              </>
            )}
            {left > 0 && (
              <RefundForm
                code={order.code}
                left={left}
                throughStripe={order.payment.paidThroughStripe && Boolean(configuredPayments())}
                cancelsWhenAll={order.status === 'pending' || order.status === 'paid'}
              />
            )}
          </section>

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
                  {event.sketchStatus && (
                    <span className={styles.sub} data-testid="history-sketch">
                      {t('sketch')}: {ts(`sketch.${event.sketchStatus}`)}
                    </span>
                  )}
                  {event.photo && (
                    <a href={event.photo.url} className={styles.historyPhoto} target="_blank" rel="noopener">
                      {/* eslint-disable-next-line @next/next/no-img-element -- as above */}
                      <img src={event.photo.url} alt={t(`photos.kinds.${event.photo.kind}`)} loading="lazy" />
                    </a>
                  )}
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
