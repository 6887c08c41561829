'use client';

import { useLocale, useTranslations } from 'next-intl';
import { dateTimeFormat } from '@/lib/format';
import type { Size } from '@/shared/canvas';
import { deliveryWindow, type DeliveryWindow } from '@/shared/delivery';
import type { OrderKind } from '@/shared/orders';
import styles from './order.module.css';

/** `16–22 Dec 2026` in the page's language; the window's days are UTC days. */
export function formatDeliveryWindow(window: DeliveryWindow, locale: string): string {
  const format = dateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  return format.formatRange(new Date(`${window.earliest}T00:00:00Z`), new Date(`${window.latest}T00:00:00Z`));
}

/**
 * Beside every price: when the painting arrives if ordered today, from the same table and function
 * the order page and the e-mail use, and that the price is in US dollars with shipping included.
 */
export function DeliveryEstimate({ kind, size }: { kind: OrderKind; size: Size }) {
  const t = useTranslations('OrderForm.delivery');
  const locale = useLocale();
  const window = deliveryWindow({ kind, size }, new Date())!;
  return (
    <p className={styles.delivery} data-testid="delivery-estimate">
      {/* Rendered on the server up to five minutes before it is shown: the day may turn in between. */}
      <span suppressHydrationWarning>{t(kind === 'custom' ? 'estimateCustom' : 'estimate', { range: formatDeliveryWindow(window, locale) })}</span> <span>{t('included')}</span>
    </p>
  );
}
