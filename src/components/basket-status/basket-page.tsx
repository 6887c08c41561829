'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { foldOrderCode } from '@/components/order-status/order-code';
import { rememberEmail, rememberedEmail } from '@/components/order-status/remembered-email';
import css from '@/components/order-status/order-status.module.css';
import { PayBy, PayByTransfer } from '@/components/order-status/transfer-details';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Link } from '@/i18n/navigation';
import { formatDate, formatUsd } from '@/lib/format';
import type { CheckoutView } from '@/shared/checkout-schema';
import { latestWindow } from '@/shared/delivery';
import { pagePath } from '@/shared/paths';
import { trpc } from '@/trpc/react';
import { formatDeliveryWindow } from '@/components/order';

type Banner = 'placed' | 'paid' | 'cancelled' | null;

/**
 * `/orders/basket/<code>`: a basket's orders, once the browser knows the e-mail that goes with it
 * (kept for the tab under the basket's code, as an order's is; or handed over for the signed-in
 * owner). Each order links to its own page, which then needs no e-mail either.
 */
export function BasketPage({ code: typedCode, banner, ownerEmail = null }: { code: string; banner: Banner; ownerEmail?: string | null }) {
  const code = foldOrderCode(typedCode);
  const [email, setEmail] = useState<string | null | undefined>(ownerEmail ?? undefined);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a browser-only value, read after hydration
    if (!ownerEmail) setEmail(rememberedEmail(code));
  }, [code, ownerEmail]);
  const t = useTranslations('Orders.basket');
  if (email === undefined)
    return (
      <p className={css.loading} role="status">
        {t('loading')}
      </p>
    );
  if (email === null) return <AskForEmail code={code} onEmail={setEmail} />;
  return <KnownBasket code={code} email={email} banner={banner} onForget={() => setEmail(null)} />;
}

function AskForEmail({ code, onEmail }: { code: string; onEmail: (email: string) => void }) {
  const t = useTranslations('Orders.basket');
  const id = useId();
  const [typed, setTyped] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim()) onEmail(typed.trim());
  };
  return (
    <div className={css.gate}>
      <p className="eyebrow">{t('eyebrow')}</p>
      <h1 className={css.orderTitle}>
        {t('title')} <span className={css.code}>{code}</span>
      </h1>
      <p className={css.gateLead}>{t('askEmail')}</p>
      <form onSubmit={submit} className={css.lookup} noValidate>
        <TextField id={`${id}-email`} label={t('email')} type="email" autoComplete="email" value={typed} onChange={(event) => setTyped(event.target.value)} required />
        <Button type="submit" variant="primary">
          {t('open')}
        </Button>
      </form>
    </div>
  );
}

function KnownBasket({ code, email, banner, onForget }: { code: string; email: string; banner: Banner; onForget: () => void }) {
  const t = useTranslations('Orders.basket');
  const query = trpc.checkouts.byCode.useQuery({ code, email }, { retry: false, staleTime: 30_000 });
  const notFound = query.error?.data?.code === 'NOT_FOUND';
  useEffect(() => {
    if (notFound) onForget();
  }, [notFound, onForget]);
  useEffect(() => {
    if (!query.data) return;
    // The e-mail that opened the basket opens each of its orders' pages too, in this tab.
    rememberEmail(code, email);
    for (const order of query.data.checkout.orders) rememberEmail(order.code, email);
  }, [query.data, code, email]);
  if (query.data) return <BasketDetails basket={query.data.checkout} email={email} banner={banner} />;
  if (query.isError && !notFound)
    return (
      <div className={css.gate}>
        <p className={css.lookupOutcomeTitle} role="alert">
          {t('loadFailed')}
        </p>
        <button type="button" className={css.textButton} onClick={() => void query.refetch()}>
          {t('retry')}
        </button>
      </div>
    );
  return (
    <p className={css.loading} role="status">
      {t('loading')}
    </p>
  );
}

function BasketDetails({ basket, email, banner }: { basket: CheckoutView; email: string; banner: Banner }) {
  const t = useTranslations('Orders.basket');
  const to = useTranslations('Orders.order');
  const ts = useTranslations('Orders.status');
  const locale = useLocale();
  const waiting = basket.orders.filter((order) => order.status === 'pending' && order.payment.state === 'unpaid');
  const arrives = latestWindow(basket.orders.map((order) => order.estimatedDelivery));
  return (
    <div className={css.order}>
      <header className={css.orderHead}>
        <p className="eyebrow">{t('eyebrow')}</p>
        <h1 className={css.orderTitle}>
          {t('title')} <span className={css.code}>{basket.code}</span>
        </h1>
        <p className={css.placedOn}>{to('placedOn', { date: formatDate(basket.createdAt, locale, 'long') })}</p>
      </header>
      {banner ? (
        <div className={css.banner} data-banner={banner} role="status">
          <p className={css.bannerTitle}>{t(`banners.${banner}.title`)}</p>
          <p>{t(`banners.${banner}.body`, { code: basket.code })}</p>
        </div>
      ) : null}
      {waiting.length > 0 ? <PayBasket basket={basket} waiting={waiting} email={email} /> : null}
      <section aria-labelledby="basket-orders-title">
        <h2 id="basket-orders-title" className={css.sectionTitle}>
          {t('ordersTitle', { count: basket.orders.length })}
        </h2>
        <ul className={css.refunds} data-testid="basket-orders">
          {basket.orders.map((order) => (
            <li key={order.code} data-testid="basket-order">
              <Link href={pagePath.order(order.code)}>
                {order.kind === 'reproduction' ? to('reproduction') : to('custom')} · <span className={css.code}>{order.code}</span>
              </Link>{' '}
              · {formatUsd(order.total, locale)} · <strong>{ts(`${order.status}.name`)}</strong>
            </li>
          ))}
        </ul>
        <p className={css.payFact}>
          {t('total')} <strong>{formatUsd(basket.total, locale)}</strong>
        </p>
        {arrives ? (
          <p className={css.payFact}>
            {t('arrives')} <strong>{formatDeliveryWindow(arrives, locale)}</strong>
          </p>
        ) : null}
      </section>
    </div>
  );
}

/** One payment for every order of the basket still waiting: "Pay now", or the studio's instructions with the basket's code as the reference. */
function PayBasket({ basket, waiting, email }: { basket: CheckoutView; waiting: CheckoutView['orders']; email: string }) {
  const t = useTranslations('Orders.basket');
  const tp = useTranslations('Orders.order.payment');
  const locale = useLocale();
  const [failed, setFailed] = useState(false);
  const pay = trpc.checkouts.checkout.useMutation({
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
    onError: () => setFailed(true),
  });
  const payment = waiting[0]!.payment;
  const due = waiting.reduce((sum, order) => sum + order.total, 0);
  return (
    <div className={css.pending} data-testid="payment-panel">
      <p className={css.pendingTitle}>{tp('title')}</p>
      {payment.online ? (
        <>
          <p>{t('payOnline', { count: waiting.length })}</p>
          <div>
            <Button type="button" variant="primary" disabled={pay.isPending} onClick={() => (setFailed(false), pay.mutate({ code: basket.code, email }))}>
              {pay.isPending ? tp('opening') : tp('payNow')}
            </Button>
          </div>
          {failed ? (
            <p role="alert" className={css.decisionError}>
              {tp('failed')}
            </p>
          ) : null}
          {payment.bankTransfer ? <PayByTransfer bank={payment.bankTransfer} cents={due} reference={basket.code} note={payment.instructions} lead="or" /> : null}
        </>
      ) : payment.bankTransfer ? (
        <PayByTransfer bank={payment.bankTransfer} cents={due} reference={basket.code} note={payment.instructions} />
      ) : payment.instructions ? (
        <>
          <p>{tp('instructionsLead')}</p>
          <p className={css.instructions} data-testid="payment-instructions">
            {payment.instructions}
          </p>
          <p className={css.payFact}>
            {tp('amount')} <strong data-testid="payment-amount">{formatUsd(due, locale)}</strong>
          </p>
          <p className={css.payFact}>
            {tp('reference')} <strong className={css.code}>{basket.code}</strong>
          </p>
        </>
      ) : (
        <p>{tp('byEmail')}</p>
      )}
      {payment.payBy ? <PayBy date={payment.payBy} /> : null}
    </div>
  );
}
