'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Link } from '@/i18n/navigation';
import { formatDate, formatUsd } from '@/lib/format';
import type { OrderView } from '@/shared/order-schema';
import { pagePath } from '@/shared/paths';
import { trpc } from '@/trpc/react';
import css from './order-status.module.css';
import { PayBy, PayByTransfer } from './transfer-details';

/** Whether the order page has anything to say about money: how to pay, a payment on its way, a dispute, refunds. */
export const saysSomethingAboutMoney = ({ status, payment }: OrderView) =>
  (status === 'pending' && payment.state !== 'paid') || payment.disputed || payment.refunds.length > 0 || payment.refunded > 0;

/**
 * What the order page says about money (decisions.md "Payments and refunds"): a payment on its way
 * offers no new one; a dispute says production waits; refunds say how much went back and when.
 * Otherwise a pending order says how to pay it (`HowToPay`).
 */
export function PaymentPanel({ order, email }: { order: OrderView; email: string }) {
  const t = useTranslations('Orders.order.payment');
  const locale = useLocale();
  const { payment } = order;
  if (payment.disputed) {
    return (
      <div className={css.pending} data-testid="payment-panel" data-payment="disputed">
        <p className={css.pendingTitle}>{t('disputedTitle')}</p>
        <p>{t('disputed')}</p>
      </div>
    );
  }
  if (payment.state === 'processing') {
    return (
      <div className={css.pending} data-testid="payment-panel" data-payment="processing">
        <p className={css.pendingTitle}>{t('processingTitle')}</p>
        <p>{t('processing')}</p>
      </div>
    );
  }
  if (payment.refunded > 0) {
    return (
      <div className={css.pending} data-testid="payment-panel" data-payment={payment.state}>
        <p className={css.pendingTitle}>{t('refundsTitle')}</p>
        <p>
          {payment.state === 'refunded'
            ? t('refundedAll', { amount: formatUsd(payment.paid, locale) })
            : t('refundedPart', { refunded: formatUsd(payment.refunded, locale), paid: formatUsd(payment.paid, locale) })}
        </p>
        {payment.refunds.length > 0 ? (
          <ul className={css.refunds}>
            {payment.refunds.map((refund) => (
              <li key={refund.at}>{t('refundLine', { amount: formatUsd(refund.amount, locale), date: formatDate(refund.at, locale, 'long') })}</li>
            ))}
          </ul>
        ) : null}
        <p>{t('refundTime')}</p>
      </div>
    );
  }
  return order.status === 'pending' ? <HowToPay order={order} email={email} /> : null;
}

/**
 * A pending order says how to pay it, as the shop is configured: "Pay now" when it takes payment
 * online (a fresh Checkout session, however long ago the order was placed), its bank account with
 * the amount and the order code as the reference, each ready to copy (beside "Pay now" when it
 * takes both), the studio's own instructions, or the studio's word that it will write. An order of
 * a basket sends to the basket's page, whose code is the reference. It ends with the last day to pay.
 */
function HowToPay({ order, email }: { order: OrderView; email: string }) {
  const t = useTranslations('Orders.order.payment');
  const tb = useTranslations('Orders.basket');
  const locale = useLocale();
  const [failed, setFailed] = useState(false);
  const pay = trpc.orders.checkout.useMutation({
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
    onError: () => setFailed(true),
  });
  const payment = order.payment;
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
          {payment.bankTransfer && !order.checkout ? (
            <PayByTransfer bank={payment.bankTransfer} cents={order.total} reference={order.code} note={payment.instructions} lead="or" />
          ) : null}
        </>
      ) : order.checkout ? (
        <p>
          <Link href={pagePath.basket(order.checkout)}>{tb('payWithBasket')}</Link>
        </p>
      ) : payment.bankTransfer ? (
        <PayByTransfer bank={payment.bankTransfer} cents={order.total} reference={order.code} note={payment.instructions} />
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
      {payment.payBy ? <PayBy date={payment.payBy} /> : null}
    </div>
  );
}
