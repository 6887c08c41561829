'use client';

import { useTranslations } from 'next-intl';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import type { OrderPhotoView, OrderView } from '@/shared/order-schema';
import type { sketchDecisions } from '@/shared/orders';
import { trpc } from '@/trpc/react';
import { OrderPhoto } from './order-photo';
import css from './order-status.module.css';

const COMMENT_MAX = 2000;

/** The sketch the customer is asked about: the newest sketch, while the order's sketch waits for them. */
export function sketchAwaitingDecision(order: OrderView): OrderPhotoView | null {
  if (order.kind !== 'custom' || order.sketchStatus !== 'pending') return null;
  return order.photos.filter((p) => p.kind === 'sketch').at(-1) ?? null;
}

/**
 * The customer's answer to a sketch: the sketch beside their own photo, then approve, or ask for
 * changes with a comment. The answer is the order as it now is, shown at once on the timeline.
 */
export function SketchDecision({ order, sketch, email }: { order: OrderView; sketch: OrderPhotoView; email: string }) {
  const t = useTranslations('Orders.decision');
  const tl = useTranslations('Orders.timeline');
  const id = useId();
  const utils = trpc.useUtils();
  const [asking, setAsking] = useState(false);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const decide = trpc.orders.sketchDecision.useMutation({
    onSuccess: ({ order: now }) => utils.orders.byCode.setData({ code: order.code, email }, { order: now }),
    onError: (error) => {
      if (error.data?.code === 'CONFLICT') {
        setProblem(t('errors.conflict'));
        void utils.orders.byCode.invalidate({ code: order.code, email });
      } else setProblem(t(error.data?.code === 'TOO_MANY_REQUESTS' ? 'errors.rateLimited' : 'errors.failed'));
    },
  });
  const own = order.photos.find((p) => p.kind === 'customer');
  const tooLong = comment.length > COMMENT_MAX;

  const send = (decision: (typeof sketchDecisions)[number]) => (event?: FormEvent) => {
    event?.preventDefault();
    setProblem(null);
    if (decision === 'changes_requested' && !comment.trim()) return setProblem(t('errors.needComment'));
    if (tooLong) return;
    decide.mutate({ code: order.code, email, decision, ...(comment.trim() ? { comment: comment.trim() } : {}) });
  };

  return (
    <section className={css.decision} aria-labelledby={`${id}-title`} data-testid="sketch-decision">
      <h2 id={`${id}-title`} className={css.decisionTitle}>
        {t('title')}
      </h2>
      <p className={css.decisionLead}>{t('lead')}</p>
      <div className={css.compare}>
        <figure>
          <OrderPhoto photo={sketch} alt={t('sketchAlt')} openLabel={tl('enlarge', { what: t('sketch') })} closeLabel={tl('close')} size="large" />
          <figcaption>{t('sketch')}</figcaption>
        </figure>
        {own ? (
          <figure>
            <OrderPhoto photo={own} alt={t('photoAlt')} openLabel={tl('enlarge', { what: t('yourPhoto') })} closeLabel={tl('close')} size="large" />
            <figcaption>{t('yourPhoto')}</figcaption>
          </figure>
        ) : null}
      </div>
      {asking ? (
        <form className={css.decisionForm} onSubmit={send('changes_requested')} noValidate>
          <label htmlFor={`${id}-comment`} className={css.decisionLabel}>
            {t('commentLabel')}
          </label>
          <textarea
            id={`${id}-comment`}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            rows={4}
            aria-describedby={`${id}-hint`}
            aria-invalid={tooLong || undefined}
            className={css.decisionComment}
          />
          <p id={`${id}-hint`} className={tooLong ? css.decisionError : css.decisionHint}>
            {tooLong ? t('errors.tooLong', { max: COMMENT_MAX }) : t('commentHint', { max: COMMENT_MAX })}
          </p>
          <div className={css.decisionButtons}>
            <Button type="submit" variant="primary" disabled={decide.isPending}>
              {decide.isPending ? t('sending') : t('sendChanges')}
            </Button>
            <Button type="button" variant="quiet" onClick={() => setAsking(false)} disabled={decide.isPending}>
              {t('back')}
            </Button>
          </div>
        </form>
      ) : (
        <div className={css.decisionButtons}>
          <Button type="button" variant="primary" onClick={send('approved')} disabled={decide.isPending}>
            {decide.isPending ? t('sending') : t('approve')}
          </Button>
          <Button type="button" variant="secondary" onClick={() => setAsking(true)} disabled={decide.isPending}>
            {t('askChanges')}
          </Button>
        </div>
      )}
      <p role="alert" className={css.decisionError}>
        {problem}
      </p>
    </section>
  );
}
