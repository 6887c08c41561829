import { useLocale, useTranslations } from 'next-intl';
import { formatDateTime } from '@/lib/format';
import type { OrderView } from '@/shared/order-schema';
import { chainIndex, statusChain, type OrderStatus } from '@/shared/orders';
import { OrderPhoto } from './order-photo';
import { sketchState } from './sketch-state';
import { TrackingNumber } from './tracking-number';
import css from './order-status.module.css';

type StepState = 'done' | 'current' | 'upcoming';

/**
 * The order's history as the steps of its making, the shared status chain (placed → paid →
 * sketching → painting → drying → shipped → delivered; `cancelled` is a way out, not a step): each
 * reached step with its date and the studio's notes, the step the order is in now marked, and what
 * is still to come. Staff may skip a step; a skipped step shows as done without a date. A cancelled
 * order ends where it stopped.
 */
export function OrderTimeline({ order }: { order: OrderView }) {
  const t = useTranslations('Orders.timeline');
  const status = useTranslations('Orders.status');
  const locale = useLocale();
  const cancelled = order.status === 'cancelled';
  const reachedIndex = cancelled ? Math.max(0, ...order.events.map((e) => chainIndex(e.status)).filter((i) => i >= 0)) : chainIndex(order.status);

  const eventsOf = (s: OrderStatus) => order.events.filter((e) => e.status === s);
  const sketch = sketchState(order);
  const stateOf = (i: number): StepState => {
    if (i < reachedIndex || (i === reachedIndex && (cancelled || order.status === 'delivered'))) return 'done';
    if (i === reachedIndex) return 'current';
    return 'upcoming';
  };
  const steps: { step: OrderStatus; state: StepState }[] = statusChain
    .map((step, i) => ({ step, state: stateOf(i) }))
    .filter(({ state }) => !(cancelled && state === 'upcoming'));
  if (cancelled) steps.push({ step: 'cancelled', state: 'current' });

  return (
    <ol className={css.timeline}>
      {steps.map(({ step, state }) => {
        const events = eventsOf(step);
        // What the studio and the customer said and showed on this step: notes, photos, sketch decisions.
        const notes = events.filter((e) => e.note || e.photo || (e.sketchStatus && e.sketchStatus !== 'pending'));
        return (
          <li key={step} className={css.timelineStep} data-state={state} data-step={step} aria-current={state === 'current' ? 'step' : undefined}>
            <span className={css.marker} aria-hidden="true" />
            <div className={css.stepBody}>
              <p className={css.stepHead}>
                <span className={css.stepName}>{status(`${step}.name`)}</span>
                {events[0] ? (
                  <time className={css.stepDate} dateTime={events[0].at}>
                    {formatDateTime(events[0].at, locale)}
                  </time>
                ) : state === 'done' ? (
                  <span className={css.stepDate}>{t('skipped')}</span>
                ) : null}
              </p>
              <span className="visually-hidden">{t(`state.${state}`)}</span>
              {state !== 'done' ? <p className={css.stepText}>{status(`${step}.description`)}</p> : null}
              {step === 'sketching' && sketch !== 'notYet' && state !== 'upcoming' ? (
                <p className={css.stepExtra} data-testid="timeline-sketch">
                  {t(`sketch.${sketch}`)}
                </p>
              ) : null}
              {step === 'shipped' && order.trackingNumber && state !== 'upcoming' ? (
                <p className={css.stepExtra}>
                  {t('tracking')} <TrackingNumber number={order.trackingNumber} carrier={order.carrier} href={order.trackingUrl} locale={locale} />
                </p>
              ) : null}
              {notes.length ? (
                <ul className={css.notes} aria-label={t('notesLabel')}>
                  {notes.map((e, i) => (
                    <li key={`${e.at}-${i}`} data-testid="timeline-entry">
                      {e.photo ? (
                        <div className={css.notePhoto}>
                          <OrderPhoto
                            photo={e.photo}
                            alt={t(`photoKinds.${e.photo.kind}`)}
                            openLabel={t('enlarge', { what: t(`photoKinds.${e.photo.kind}`) })}
                            closeLabel={t('close')}
                          />
                          <span className={css.noteKind}>{t(`photoKinds.${e.photo.kind}`)}</span>
                        </div>
                      ) : null}
                      {e.sketchStatus && e.sketchStatus !== 'pending' ? (
                        // The customer's own click, or the studio's record of an answer given another way.
                        <p className={css.noteKind}>{t(`${e.actor === 'customer' ? 'decided' : 'recorded'}.${e.sketchStatus}`)}</p>
                      ) : null}
                      {e.note ? <blockquote className={css.note}>{e.note}</blockquote> : null}
                      {notes.length > 1 || e.at !== events[0]?.at ? (
                        <time className={css.noteDate} dateTime={e.at}>
                          {formatDateTime(e.at, locale)}
                        </time>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
