'use client';

import { useLocale, useTranslations } from 'next-intl';
import { ArtworkImage } from '@/components/artwork/artwork-image';
import { canvasCm } from '@/components/order';
import { ButtonLink } from '@/components/ui/button';
import { Link } from '@/i18n/navigation';
import { formatDate, formatSize, formatUsd } from '@/lib/format';
import type { OrderView } from '@/server/orders/schema';
import type { Locale } from '@/server/shared/locales';
import { pagePath } from '@/server/seo/paths';
import { trpc } from '@/trpc/react';
import { OrderTimeline } from './order-timeline';
import css from './order-status.module.css';

export type OrderBanner = 'placed' | 'paid' | 'cancelled' | null;

/**
 * One order as its customer sees it: a word of thanks when it was just placed, what was ordered,
 * what it costs, and where it is on its way (the timeline).
 */
export function OrderDetails({ order, banner }: { order: OrderView; banner: OrderBanner }) {
  const t = useTranslations('Orders.order');
  const locale = useLocale() as Locale;
  const slug = order.kind === 'reproduction' ? order.artworkSlug : null;
  // The catalog card of a reproduction (title, artist, picture) in the page's language.
  const artwork = trpc.catalog.artworksBySlugs.useQuery({ slugs: slug ?? '', locale }, { enabled: !!slug });
  const work = artwork.data?.items[0];
  const ratio = work?.widthCm && work.heightCm ? work.widthCm / work.heightCm : null;
  const canvas = canvasCm(order.size, ratio);

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

      {order.status === 'pending' && shownBanner !== 'cancelled' ? (
        <div className={css.pending}>
          <p className={css.pendingTitle}>{t('pending.title')}</p>
          <p>{t('pending.body')}</p>
        </div>
      ) : null}

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
                <ArtworkImage file={work?.imageFile ?? null} alt="" sizes="8rem" maxWidth={320} ratio={ratio} />
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
              <span className={css.itemCustomMark} aria-hidden="true">
                <svg viewBox="0 0 48 40" fill="none" stroke="currentColor" strokeWidth="1.5">
                  <rect x="1" y="1" width="46" height="38" />
                  <circle cx="24" cy="16" r="6" />
                  <path d="M12 39c1-8 6-12 12-12s11 4 12 12" />
                </svg>
              </span>
              <div>
                <p className={css.itemKind}>{t('custom')}</p>
                <p className={css.itemName}>{t('customName')}</p>
              </div>
            </div>
          )}
          <dl className={css.itemFacts}>
            <div>
              <dt>{t('size')}</dt>
              <dd>{formatSize(canvas.widthCm, canvas.heightCm, locale)}</dd>
            </div>
            <div>
              <dt>{t('frame')}</dt>
              <dd>{t(`frames.${order.frame}`)}</dd>
            </div>
            {order.kind === 'custom' ? (
              <>
                <div>
                  <dt>{t('photo')}</dt>
                  <dd>{t('photoReceived')}</dd>
                </div>
                <div>
                  <dt>{t('sketch')}</dt>
                  <dd>{t(`sketchStatus.${order.sketchStatus ?? 'notYet'}`)}</dd>
                </div>
              </>
            ) : null}
            {order.trackingNumber ? (
              <div>
                <dt>{t('tracking')}</dt>
                <dd className={css.tracking} data-testid="tracking-number">
                  {order.trackingNumber}
                </dd>
              </div>
            ) : null}
            <div className={css.itemTotal}>
              <dt>{t('total')}</dt>
              <dd>{formatUsd(order.total, locale)}</dd>
            </div>
          </dl>
          <p className={css.itemHelp}>{t('help', { code: order.code })}</p>
          <ButtonLink href={pagePath.orderLookup()} variant="quiet">
            {t('lookupAnother')}
          </ButtonLink>
        </aside>
      </div>
    </div>
  );
}
