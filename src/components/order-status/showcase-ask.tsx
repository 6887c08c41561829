'use client';

import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Link } from '@/i18n/navigation';
import type { OrderView } from '@/shared/order-schema';
import { pagePath } from '@/shared/paths';
import { trpc } from '@/trpc/react';
import css from './order-status.module.css';

/**
 * The order form's showcase permission, asked again on the delivered order, where the customer
 * sees the finished painting (issue #42, item 7), and taken back as easily. The answer is the
 * order as it now is.
 */
export function ShowcaseAsk({ order, email }: { order: OrderView; email: string }) {
  const t = useTranslations('Orders.order.delivered.showcase');
  const utils = trpc.useUtils();
  const [failed, setFailed] = useState<string | null>(null);
  const change = trpc.orders.showcaseConsent.useMutation({
    onSuccess: ({ order: now }) => utils.orders.byCode.setData({ code: order.code, email }, { order: now }),
    onError: (error) => setFailed(t(error.data?.code === 'TOO_MANY_REQUESTS' ? 'rateLimited' : 'failed')),
  });
  const allowed = order.showcaseConsent;
  const gallery = (chunks: ReactNode) => <Link href={pagePath.showcase()}>{chunks}</Link>;
  return (
    <div className={css.showcaseAsk} data-testid="showcase-ask" data-consent={allowed}>
      <p>{allowed ? t.rich('allowed', { gallery }) : t.rich('ask', { gallery })}</p>
      <Button
        variant={allowed ? 'quiet' : 'secondary'}
        disabled={change.isPending}
        onClick={() => {
          setFailed(null);
          change.mutate({ code: order.code, email, consent: !allowed });
        }}
      >
        {allowed ? t('withdraw') : t('allow')}
      </Button>
      {failed ? (
        <p className={css.showcaseAskError} role="alert">
          {failed}
        </p>
      ) : null}
    </div>
  );
}
