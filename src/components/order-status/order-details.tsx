'use client';

import { useLocale, useTranslations } from 'next-intl';
import { ArtworkImage } from '@/components/artwork/artwork-image';
import { canvasCm } from '@/components/order';
import { formatDeliveryWindow } from '@/components/order';
import { ButtonLink } from '@/components/ui/button';
import { Link } from '@/i18n/navigation';
import { formatDate, formatSize, formatUsd } from '@/lib/format';
import type { Locale } from '@/shared/locales';
import type { OrderView } from '@/shared/order-schema';
import { pagePath } from '@/shared/paths';
import { trpc } from '@/trpc/react';
import { OrderPhoto } from './order-photo';
import { PaymentPanel, saysSomethingAboutMoney } from './payment-panel';
import { OrderTimeline } from './order-timeline';
import { SketchDecision, sketchAwaitingDecision } from './sketch-decision';
import { ShowcaseAsk } from './showcase-ask';
import { sketchState } from './sketch-state';
import { TrackingNumber } from './tracking-number';
import css from './order-status.module.css';

/** A country code in the visitor's language (`DE` → `Deutschland`), or the code when the browser has no name for it. */
function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export type OrderBanner = 'placed' | 'paid' | 'cancelled' | null;

/**
 * One order as its customer sees it: a word of thanks when it was just placed, what was ordered,
 * what it costs, and where it is on its way (the timeline).
 */
export function OrderDetails({ order, banner, email }: { order: OrderView; banner: OrderBanner; email: string }) {
  const t = useTranslations('Orders.order');
  const tl = useTranslations('Orders.timeline');
  const tc = useTranslations('Custom');
  const locale = useLocale() as Locale;
  const sketch = sketchAwaitingDecision(order);
  const ownPhoto = order.photos.find((p) => p.kind === 'customer');
  const slug = order.kind === 'reproduction' ? order.artworkSlug : null;
  // The catalog card of a reproduction (title, artist, picture) in the page's language.
  const artwork = trpc.catalog.artworksBySlugs.useQuery({ slugs: slug ?? '', locale }, { enabled: !!slug });
  const work = artwork.data?.items[0];
  const ratio = work?.widthCm && work.heightCm ? work.widthCm / work.heightCm : null;
  // As ordered: the orientation the order keeps, never guessed again from the picture.
  const canvas = canvasCm(order.size, order.orientation);

  // `placed` comes from our own order form (`?placed=1`), so a later lookup does not thank again.
  const shownBanner = banner === 'paid' ? 'paid' : banner === 'cancelled' && order.status === 'pending' ? 'cancelled' : banner === 'placed' ? 'placed' : null;

  return (
    <div className={css.order}>
      <header className={css.orderHead}>
        <p className="eyebrow">{t('eyebrow')}</p>
        <h1 className={css.orderTitle}>
          {t('title')} <span className={css.code}>{order.code}</span>
        </h1>
        <p className={css.placedOn}>{t('placedOn', { date: formatDate(order.createdAt, locale, 'long') })}</p>
      </header>

      {shownBanner ? (
        <div className={css.banner} data-banner={shownBanner} role="status">
          <p className={css.bannerTitle}>{t(`banners.${shownBanner}.title`)}</p>
          <p>{t(`banners.${shownBanner}.body`, { code: order.code })}</p>
        </div>
      ) : null}

      {order.status === 'delivered' ? <Delivered order={order} email={email} /> : null}

      {order.checkout ? <BasketNote basket={order.checkout} current={order.code} email={email} /> : null}

      {saysSomethingAboutMoney(order) ? <PaymentPanel order={order} email={email} /> : null}

      {sketch ? <SketchDecision order={order} sketch={sketch} email={email} /> : null}

      <div className={css.orderColumns}>
        <section className={css.progressSection} aria-labelledby="order-progress-title">
          <h2 id="order-progress-title" className={css.sectionTitle}>
            {t('progressTitle')}
          </h2>
          <OrderTimeline order={order} />
        </section>

        <aside className={css.item} aria-labelledby="order-item-title">
          <h2 id="order-item-title" className={css.sectionTitle}>
            {t('itemTitle')}
          </h2>
          {order.kind === 'reproduction' && slug ? (
            <div className={css.itemWork}>
              <Link href={pagePath.artwork(slug)} className={css.itemPicture} tabIndex={-1} aria-hidden="true">
                <ArtworkImage file={work?.imageFile ?? null} alt="" sizes="8rem" maxWidth={330} ratio={ratio} />
              </Link>
              <div>
                <p className={css.itemKind}>{t('reproduction')}</p>
                <Link href={pagePath.artwork(slug)} className={css.itemName}>
                  {work?.title ?? slug}
                </Link>
                {work ? <p className={css.itemArtist}>{work.artist.name}</p> : null}
              </div>
            </div>
          ) : (
            <div className={css.itemWork}>
              {ownPhoto ? (
                <div className={css.itemPicture}>
                  <OrderPhoto photo={ownPhoto} alt={t('photoAlt')} openLabel={tl('enlarge', { what: t('photo') })} closeLabel={tl('close')} />
                </div>
              ) : (
                <span className={css.itemCustomMark} aria-hidden="true">
                  <svg viewBox="0 0 48 40" fill="none" stroke="currentColor" strokeWidth="1.5">
                    <rect x="1" y="1" width="46" height="38" />
                    <circle cx="24" cy="16" r="6" />
                    <path d="M12 39c1-8 6-12 12-12s11 4 12 12" />
                  </svg>
                </span>
              )}
              <div>
                <p className={css.itemKind}>{t('custom')}</p>
                <p className={css.itemName}>{t('customName')}</p>
              </div>
            </div>
          )}
          <dl className={css.itemFacts}>
            <div>
              <dt>{t('size')}</dt>
              <dd data-testid="order-size">
                {formatSize(canvas.widthCm, canvas.heightCm, locale)} · {t(`orientations.${order.orientation}`)}
              </dd>
            </div>
            <div>
              <dt>{t('frame')}</dt>
              <dd>{t(`frames.${order.frame}`)}</dd>
            </div>
            {order.fit ? (
              <div>
                <dt>{t('fit')}</dt>
                <dd>{t(`fits.${order.fit}`)}</dd>
              </div>
            ) : null}
            {order.kind === 'custom' ? (
              <>
                <div>
                  <dt>{t('style')}</dt>
                  <dd>{order.style ? tc(`style.names.${order.style}`) : '—'}</dd>
                </div>
                <div>
                  <dt>{t('subjects')}</dt>
                  <dd>{tc('subjects.count', { count: order.subjects ?? 1 })}</dd>
                </div>
                <div>
                  <dt>{t('sketch')}</dt>
                  <dd data-testid="sketch-fact">{t(`sketchStatus.${sketchState(order)}`)}</dd>
                </div>
              </>
            ) : null}
            {order.estimatedDelivery ? (
              <div>
                <dt>{t('estimate')}</dt>
                <dd data-testid="order-estimate">{formatDeliveryWindow(order.estimatedDelivery, locale)}</dd>
              </div>
            ) : null}
            {order.trackingNumber ? (
              <div>
                <dt>{t('tracking')}</dt>
                <dd data-testid="tracking-number">
                  <TrackingNumber number={order.trackingNumber} carrier={order.carrier} href={order.trackingUrl} locale={locale} />
                </dd>
              </div>
            ) : null}
            <div className={css.itemTotal}>
              <dt>{t('total')}</dt>
              <dd>{formatUsd(order.total, locale)}</dd>
            </div>
          </dl>
          {order.notes ? (
            <div className={css.itemBlock}>
              <h3 className={css.itemBlockTitle}>{t('notes')}</h3>
              <p className={css.itemNotes}>{order.notes}</p>
            </div>
          ) : null}
          <div className={css.itemBlock}>
            <h3 className={css.itemBlockTitle}>{t('delivery')}</h3>
            <address className={css.itemAddress} data-testid="delivery-address">
              {order.delivery.name}
              <br />
              {order.delivery.street}
              <br />
              {order.delivery.postalCode} {order.delivery.city}
              <br />
              {countryName(order.delivery.country, locale)}
            </address>
          </div>
          <p className={css.itemHelp}>{t('help', { code: order.code })}</p>
          <ButtonLink href={pagePath.orderLookup()} variant="quiet">
            {t('lookupAnother')}
          </ButtonLink>
        </aside>
      </div>
    </div>
  );
}

/** An order of a basket names its basket (its page pays and lists them all) and the orders placed with it. */
function BasketNote({ basket, current, email }: { basket: string; current: string; email: string }) {
  const t = useTranslations('Orders.basket');
  const to = useTranslations('Orders.order');
  const siblings = trpc.checkouts.byCode.useQuery({ code: basket, email }, { retry: false, staleTime: 30_000 });
  const others = siblings.data?.checkout.orders.filter((order) => order.code !== current) ?? [];
  return (
    <p className={css.placedOn} data-testid="order-basket">
      <Link href={pagePath.basket(basket)}>{t('partOf', { code: basket })}</Link>
      {others.length > 0 ? (
        <>
          {' · '}
          {t('siblings')}{' '}
          {others.map((order, index) => (
            <span key={order.code}>
              {index > 0 ? ', ' : ''}
              <Link href={pagePath.order(order.code)}>
                {order.kind === 'reproduction' ? to('reproduction') : to('custom')} <span className={css.code}>{order.code}</span>
              </Link>
            </span>
          ))}
        </>
      ) : null}
    </p>
  );
}

/**
 * A delivered order opens with the painting itself: the studio's photo of the finished work large
 * (the newest, when there are several), a word of thanks, and the way to order another: the same
 * work again, or a custom painting.
 */
function Delivered({ order, email }: { order: OrderView; email: string }) {
  const t = useTranslations('Orders.order.delivered');
  const tl = useTranslations('Orders.timeline');
  const finished = order.photos.filter((photo) => photo.kind === 'finished').at(-1);
  const again = order.kind === 'reproduction' && order.artworkSlug ? pagePath.artwork(order.artworkSlug) : pagePath.custom();
  return (
    <section className={css.delivered} aria-labelledby="order-delivered-title" data-testid="order-delivered">
      {finished ? (
        <OrderPhoto photo={finished} alt={tl('photoKinds.finished')} openLabel={tl('enlarge', { what: tl('photoKinds.finished') })} closeLabel={tl('close')} size="large" />
      ) : null}
      <div className={css.deliveredText}>
        <h2 id="order-delivered-title" className={css.deliveredTitle}>
          {t('title')}
        </h2>
        <p>{t('body')}</p>
        <div className={css.deliveredActions}>
          <ButtonLink variant="primary" href={again}>
            {order.kind === 'reproduction' ? t('again') : t('anotherCustom')}
          </ButtonLink>
          <ButtonLink href={pagePath.artworks()}>{t('browse')}</ButtonLink>
        </div>
        <ShowcaseAsk order={order} email={email} />
      </div>
    </section>
  );
}
