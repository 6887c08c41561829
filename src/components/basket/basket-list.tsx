'use client';

import { keepPreviousData } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import { formatDeliveryWindow, usePriceTable, type PriceTableData } from '@/components/order';
import { ButtonLink } from '@/components/ui/button';
import { formatUsd } from '@/lib/format';
import { deliveryWindow, latestWindow } from '@/shared/delivery';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import { priceOf } from '@/shared/prices';
import type { PaymentMode } from '@/shared/payment';
import { trpc } from '@/trpc/react';
import { BasketCheckout } from './basket-checkout';
import { BasketLine, photoKeptUntil, type Unpayable } from './basket-line';
import { useBasket } from './use-basket';
import styles from './basket.module.css';

/**
 * The basket page's content: every work put aside (signed out from this browser, signed in from
 * the account), the total of those that can be ordered, and one form that orders and pays them
 * together (`checkouts.create`). The works' cards come from the catalog, so a work no longer
 * published shows as such; a custom item whose photo is no longer kept says so. Neither is paid.
 */
export function BasketList({ initialPrices, paymentMode }: { initialPrices: PriceTableData; paymentMode: PaymentMode }) {
  const t = useTranslations('Basket');
  const locale = useLocale() as Locale;
  const { entries, loading } = useBasket();
  const { table } = usePriceTable(initialPrices);
  // What the server refused at the last attempt (a work unpublished or a photo gone since the page was read).
  const [refused, setRefused] = useState<ReadonlyMap<string, Unpayable>>(new Map());
  // The clock a photo's 24 hours are read against, moved on every minute while the page is open.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

  const slugs = [...new Set(entries.flatMap((entry) => (entry.item.kind === 'reproduction' ? [entry.item.artworkSlug] : [])))];
  const cards = trpc.catalog.artworksBySlugs.useQuery(
    { slugs: slugs.join(','), locale },
    // Removing one keeps the other pictures on screen while the shorter list is asked for.
    { enabled: slugs.length > 0, placeholderData: keepPreviousData, staleTime: 5 * 60_000 },
  );
  const cardOf = useMemo(() => new Map((cards.data?.items ?? []).map((card) => [card.slug, card])), [cards.data]);

  const lines = entries.map((entry) => {
    let unpayable: Unpayable | null = refused.get(entry.id) ?? null;
    if (entry.item.kind === 'reproduction' && cards.data && !cardOf.has(entry.item.artworkSlug)) unpayable = 'unavailable';
    const keptUntil = photoKeptUntil(entry);
    if (keptUntil && keptUntil.getTime() <= now) unpayable = 'photoGone';
    return { entry, unpayable };
  });
  const payable = lines.filter((line) => !line.unpayable).map((line) => line.entry);
  const total = table ? payable.reduce((sum, entry) => sum + priceOf(entry.item, table), 0) : null;
  const arrival = latestWindow(payable.map((entry) => deliveryWindow({ kind: entry.item.kind, size: entry.item.size }, new Date())));

  if (loading || (slugs.length > 0 && cards.isPending)) {
    return (
      <p className={styles.waiting} role="status">
        {t('loading')}
      </p>
    );
  }
  if (entries.length === 0) {
    return (
      <div className={styles.empty} data-basket-empty>
        <h2>{t('emptyTitle')}</h2>
        <p>{t('emptyBody')}</p>
        <div className={styles.emptyLinks}>
          <ButtonLink href={pagePath.artworks()} variant="primary">
            {t('browse')}
          </ButtonLink>
          <ButtonLink href={pagePath.custom()}>{t('custom')}</ButtonLink>
        </div>
      </div>
    );
  }

  return (
    <div className={styles.layout}>
      <section aria-labelledby="basket-works">
        <h2 id="basket-works" className={styles.count}>
          {t('count', { count: entries.length })}
        </h2>
        {cards.isError ? (
          <p className={styles.waiting} role="alert">
            {t('loadFailed')}
          </p>
        ) : null}
        <ul className={styles.lines}>
          {lines.map(({ entry, unpayable }) => (
            <BasketLine
              key={entry.id}
              entry={entry}
              card={entry.item.kind === 'reproduction' ? cardOf.get(entry.item.artworkSlug) : undefined}
              table={table}
              unpayable={unpayable}
            />
          ))}
        </ul>
      </section>
      <BasketCheckout
        entries={payable}
        left={entries.length - payable.length}
        total={total == null ? '—' : formatUsd(total, locale)}
        cents={total}
        arrival={arrival ? formatDeliveryWindow(arrival, locale) : null}
        paymentMode={paymentMode}
        onRefused={setRefused}
      />
    </div>
  );
}
