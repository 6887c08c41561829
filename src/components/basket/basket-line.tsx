'use client';

import { useLocale, useTranslations } from 'next-intl';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { ArtworkImage } from '@/components/artwork/artwork-image';
import { styleExample } from '@/components/custom/style-picker';
import { canvasCm, FitChoice, fitMatters, formatDeliveryWindow, SizeFramePicker, type PriceTableData } from '@/components/order';
import { FormError } from '@/components/order/checkout';
import { Button } from '@/components/ui/button';
import { Link } from '@/i18n/navigation';
import { dateTimeFormat, formatSize, formatUsd } from '@/lib/format';
import { orientationOf } from '@/shared/canvas';
import type { BasketEntry } from '@/shared/basket-schema';
import { deliveryWindow } from '@/shared/delivery';
import { imageSrc } from '@/shared/images';
import { pagePath } from '@/shared/paths';
import { priceOf } from '@/shared/prices';
import { UNUSED_UPLOAD_HOURS } from '@/shared/uploads';
import type { AppRouter } from '@/server/api/root';
import { useBasket } from './use-basket';
import styles from './basket.module.css';

/** A work's catalog card, as `catalog.artworksBySlugs` answers it. */
type ArtworkCard = inferRouterOutputs<AppRouter>['catalog']['artworksBySlugs']['items'][number];

/** Why an entry cannot be ordered now: its work left the catalog, or its photo is no longer kept. */
export type Unpayable = 'unavailable' | 'photoGone';

/** When an entry's photo stops being kept, if it is a custom item. */
export const photoKeptUntil = (entry: BasketEntry): Date | null =>
  entry.item.kind === 'custom' && entry.uploadedAt ? new Date(new Date(entry.uploadedAt).getTime() + UNUSED_UPLOAD_HOURS * 3_600_000) : null;

interface Props {
  entry: BasketEntry;
  /** The work's catalog card (reproductions); undefined while asked for. */
  card: ArtworkCard | undefined;
  table: PriceTableData | undefined;
  unpayable: Unpayable | null;
}

/**
 * One work in the basket: its picture, what was chosen (size, frame, orientation, and the fit or
 * the style), its price and when it would arrive, with "Change" (size, frame, fit, in place) and
 * "Remove". A work that can no longer be ordered says why and stays until removed.
 */
export function BasketLine({ entry, card, table, unpayable }: Props) {
  const t = useTranslations('Basket');
  const form = useTranslations('OrderForm');
  const custom = useTranslations('Custom');
  const catalog = useTranslations('Catalog');
  const locale = useLocale();
  const { change, remove } = useBasket();
  const [editing, setEditing] = useState(false);
  const [saveFailed, setSaveFailed] = useState(false);
  const { item } = entry;
  const ratio = card?.widthCm && card.heightCm ? card.widthCm / card.heightCm : null;
  // The forms always say; an entry without one hangs the way the work does, as the server decides.
  const orientation = item.orientation ?? orientationOf(ratio, 1);
  const canvas = canvasCm(item.size, orientation);
  const cents = table ? priceOf(item, table) : null;
  const window = deliveryWindow({ kind: item.kind, size: item.size }, new Date())!;
  const keptUntil = photoKeptUntil(entry);
  const headingId = `basket-${entry.id}`;

  const save = async (next: typeof item) => setSaveFailed(!(await change(entry.id, next)));

  const title = item.kind === 'reproduction' ? (card?.title ?? (unpayable ? t('unavailableTitle') : '…')) : t('customTitle', { style: custom(`style.names.${item.style}`) });

  return (
    <li className={styles.line} aria-labelledby={headingId} data-basket-entry={entry.id} data-unpayable={unpayable ?? undefined}>
      <div className={styles.picture}>
        {item.kind === 'reproduction' ? (
          card ? (
            <ArtworkImage file={card.imageFile} alt={catalog('imageAlt', { title: card.title, artist: card.artist.name })} sizes="7rem" maxWidth={330} ratio={ratio} />
          ) : null
        ) : (
          // eslint-disable-next-line @next/next/no-img-element -- a picture drawn in this browser (data: address) or a static example of the style.
          <img src={entry.thumbnail ?? styleExample(item.style)} alt={entry.thumbnail ? t('photoAlt') : ''} />
        )}
      </div>
      <div className={styles.about}>
        <h2 className={styles.lineTitle} id={headingId}>
          {item.kind === 'reproduction' && card ? <Link href={pagePath.artwork(card.slug)}>{title}</Link> : title}
        </h2>
        {item.kind === 'reproduction' && card ? <p className={styles.artist}>{card.artist.name}</p> : null}
        <dl className={styles.facts}>
          <div>
            <dt>{t('facts.size')}</dt>
            <dd>{formatSize(canvas.widthCm, canvas.heightCm, locale)}</dd>
          </div>
          <div>
            <dt>{t('facts.frame')}</dt>
            <dd>{form(`frames.${item.frame}.name`)}</dd>
          </div>
          <div>
            <dt>{t('facts.orientation')}</dt>
            <dd>{t(`orientations.${orientation}`)}</dd>
          </div>
          {item.kind === 'reproduction' ? (
            <div>
              <dt>{t('facts.fit')}</dt>
              <dd>{t(`fits.${item.fit}`)}</dd>
            </div>
          ) : (
            <div>
              <dt>{t('facts.subjects')}</dt>
              <dd>{custom('subjects.count', { count: item.subjects })}</dd>
            </div>
          )}
        </dl>
        {unpayable ? (
          <FormError>
            {unpayable === 'unavailable' ? t('unavailable') : t('photoGone')} {unpayable === 'photoGone' ? <Link href={pagePath.custom()}>{t('uploadAgain')}</Link> : null}
          </FormError>
        ) : (
          <p className={styles.arrives}>
            {keptUntil ? (
              <>
                {t('photoKept', { time: dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(keptUntil) })}
                <br />
              </>
            ) : null}
            <span suppressHydrationWarning>{t('arrives', { range: formatDeliveryWindow(window, locale) })}</span>
          </p>
        )}
        {editing ? (
          <div className={styles.editor}>
            <SizeFramePicker
              size={item.size}
              frame={item.frame}
              onChange={(size, frame) => save({ ...item, size, frame })}
              kind={item.kind}
              subjects={item.kind === 'custom' ? item.subjects : undefined}
              ratio={item.kind === 'reproduction' ? ratio : canvas.widthCm / canvas.heightCm}
              initialPrices={table}
              idPrefix={`edit-${entry.id}`}
            />
            {item.kind === 'reproduction' && card?.imageFile && fitMatters(ratio, canvas) ? (
              <FitChoice
                idPrefix={`edit-${entry.id}`}
                ratio={ratio!}
                canvas={canvas}
                imageSrc={imageSrc(card.imageFile, 500)}
                value={item.fit}
                onChange={(fit) => save({ ...item, fit })}
              />
            ) : null}
          </div>
        ) : null}
        {saveFailed ? <FormError>{t('saveFailed')}</FormError> : null}
        <div className={styles.actions}>
          {unpayable ? null : (
            <Button variant="quiet" aria-expanded={editing} aria-describedby={headingId} onClick={() => setEditing(!editing)}>
              {editing ? t('done') : t('change')}
            </Button>
          )}
          <Button variant="quiet" aria-describedby={headingId} onClick={async () => setSaveFailed(!(await remove([entry.id])))}>
            {t('remove')}
          </Button>
        </div>
      </div>
      <p className={styles.price} data-testid="basket-line-price" data-cents={cents ?? undefined}>
        {cents == null || unpayable ? '—' : formatUsd(cents, locale)}
      </p>
    </li>
  );
}
