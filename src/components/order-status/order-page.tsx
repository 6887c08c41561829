'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import type { OrderView } from '@/shared/order-schema';
import { trpc } from '@/trpc/react';
import { foldOrderCode } from './order-code';
import { OrderDetails, type OrderBanner } from './order-details';
import { OrderLookupForm } from './order-lookup-form';
import { forgetEmail, rememberedEmail } from './remembered-email';
import css from './order-status.module.css';

/**
 * `/orders/<code>`: the order, once the browser knows the e-mail that goes with it. The order form
 * and the lookup leave it in sessionStorage; anyone else (an e-mail link, Stripe's return) is
 * asked for it, unless they are signed in to the account that owns the order: then the page
 * hands over the order's e-mail (`ownerEmail`). The e-mail never travels in the address.
 */
export function OrderPage({ code: typedCode, banner, ownerEmail = null }: { code: string; banner: OrderBanner; ownerEmail?: string | null }) {
  const code = foldOrderCode(typedCode);
  // undefined: not read yet (sessionStorage exists only in the browser); null: not known.
  const [email, setEmail] = useState<string | null | undefined>(ownerEmail ?? undefined);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a browser-only value, read after hydration
    if (!ownerEmail) setEmail(rememberedEmail(code));
  }, [code, ownerEmail]);

  if (email === undefined) return <OrderLoading />;
  if (email === null) return <AskForEmail code={code} onFound={(_, typed) => setEmail(typed)} />;
  return <KnownOrder code={code} email={email} banner={banner} onForget={() => setEmail(null)} />;
}

function KnownOrder({ code, email, banner, onForget }: { code: string; email: string; banner: OrderBanner; onForget: () => void }) {
  const t = useTranslations('Orders.order');
  const query = trpc.orders.byCode.useQuery({ code, email }, { retry: false, staleTime: 30_000 });
  const notFound = query.error?.data?.code === 'NOT_FOUND';
  const rateLimited = query.error?.data?.code === 'TOO_MANY_REQUESTS';

  // A remembered e-mail that no longer matches (a typo kept from another tab) is dropped, and the page asks.
  useEffect(() => {
    if (notFound) {
      forgetEmail(code);
      onForget();
    }
  }, [notFound, code, onForget]);

  if (query.data) return <OrderDetails order={query.data.order} banner={banner} email={email} />;
  if (query.isError && !notFound)
    return (
      <div className={css.gate}>
        <p className={css.lookupOutcomeTitle} role="alert">
          {rateLimited ? t('rateLimited') : t('loadFailed')}
        </p>
        <button type="button" className={css.textButton} onClick={() => void query.refetch()}>
          {t('retry')}
        </button>
      </div>
    );
  return <OrderLoading />;
}

function AskForEmail({ code, onFound }: { code: string; onFound: (order: OrderView, email: string) => void }) {
  const t = useTranslations('Orders.order');
  return (
    <div className={css.gate}>
      <p className="eyebrow">{t('eyebrow')}</p>
      <h1 className={css.orderTitle}>
        {t('title')} <span className={css.code}>{code}</span>
      </h1>
      <p className={css.gateLead}>{t('askEmail')}</p>
      <OrderLookupForm code={code} onFound={onFound} />
    </div>
  );
}

function OrderLoading() {
  const t = useTranslations('Orders.order');
  return (
    <p className={css.loading} role="status">
      {t('loading')}
    </p>
  );
}
