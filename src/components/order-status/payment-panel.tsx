'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatUsd } from '@/lib/format';
import type { OrderView } from '@/shared/order-schema';
import { trpc } from '@/trpc/react';
import css from './order-status.module.css';

/**
 * A pending order says how to pay it: "Pay now" when the shop takes payment online (a fresh
 * Checkout session, however long ago the order was placed), the studio's instructions with the
 * amount and the order code as the reference (all a bank form asks), or the studio's word that it
 * will write.
 */
export function PaymentPanel({ order, email }: { order: OrderView; email: string }) {
  const t = useTranslations('Orders.order.payment');
  const locale = useLocale();
  const [failed, setFailed] = useState(false);
  const pay = trpc.orders.checkout.useMutation({
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
    onError: () => setFailed(true),
  });
  const payment = order.payment;
  if (!payment) return null;
  return (
    <div className={css.pending} data-testid="payment-panel">
      <p className={css.pendingTitle}>{t('title')}</p>
      {payment.online ? (
        <>
          <p>{t('online')}</p>
          <div>
            <Button type="button" variant="primary" disabled={pay.isPending} onClick={() => (setFailed(false), pay.mutate({ code: order.code, email }))}>
              {pay.isPending ? t('opening') : t('payNow')}
            </Button>
          </div>
          {failed ? (
            <p role="alert" className={css.decisionError}>
              {t('failed')}
            </p>
          ) : null}
        </>
      ) : payment.instructions ? (
        <>
          <p>{t('instructionsLead')}</p>
          <p className={css.instructions} data-testid="payment-instructions">
            {payment.instructions}
          </p>
          <p className={css.payFact}>
            {t('amount')} <strong data-testid="payment-amount">{formatUsd(order.total, locale)}</strong>
          </p>
          <p className={css.payFact}>
            {t('reference')} <strong className={css.code}>{order.code}</strong>
          </p>
        </>
      ) : (
        <p>{t('byEmail')}</p>
      )}
    </div>
  );
}
