'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useState, type FormEvent } from 'react';
import { carrierName, carriers, type Carrier } from '@/shared/carriers';
import type { Locale } from '@/shared/locales';
import { chainIndex, paintingStarts, sketchDecisions, statusChain, trackedStatuses, type OrderKind, type OrderStatus, type SketchStatus } from '@/shared/orders';
import { money } from '../../../_lib/format';
import { staffApi } from '../../../_lib/trpc';
import styles from '../../staff.module.css';

type Sketch = SketchStatus;

interface Props {
  locale: Locale;
  order: {
    code: string;
    kind: OrderKind;
    status: OrderStatus;
    /** The number of events the page showed: a change made by someone else since then is refused, not overwritten. */
    version: number;
    moves: OrderStatus[];
    trackingNumber: string | null;
    carrier: Carrier | null;
    sketchStatus: Sketch | null;
    /** What was paid and refunded: a cancellation alone gives nothing back. */
    payment: { paid: number; refunded: number };
  };
}

/** The next step of the chain when the server allows it, else the first move it allows, else a note only. */
function suggested(order: Props['order']): OrderStatus {
  const next = statusChain[chainIndex(order.status) + 1];
  if (next && order.moves.includes(next)) return next;
  return order.moves.find((m) => m !== 'cancelled') ?? order.status;
}

/**
 * The order's next step: only the moves the server allows are offered (computed by the same rules
 * the change applies), with a note, a tracking number when shipping and the sketch's status for
 * custom paintings. After a change the page is read again, so what is shown is what is stored.
 */
export function OrderActions({ locale, order: shown }: Props) {
  const t = useTranslations('Staff.order.actions');
  const ts = useTranslations('Staff');
  const router = useRouter();
  const id = useId();
  // The order as last known: the answer of our own change until the page's fresh render arrives
  // (so a second change right after the first does not look like someone else's).
  const [order, setOrder] = useState(shown);
  const [target, setTarget] = useState<OrderStatus>(() => suggested(shown));
  // A fresh order (after someone else's change too) replaces it and starts from its own next step,
  // never from a choice made for the order as it was. Adjusted while rendering, as React advises for
  // state that follows a prop, rather than one render late in an effect.
  const [fresh, setFresh] = useState(shown);
  if (fresh !== shown) {
    setFresh(shown);
    setOrder(shown);
    setTarget(suggested(shown));
  }
  const [note, setNote] = useState('');
  const [tracking, setTracking] = useState(order.trackingNumber ?? '');
  // '' is a carrier not on the list: the number then shows unlinked.
  const [carrier, setCarrier] = useState<Carrier | ''>(order.carrier ?? '');
  const [sketch, setSketch] = useState<Sketch>(order.sketchStatus === 'changes_requested' ? 'changes_requested' : 'approved');
  const [approvalRecorded, setApprovalRecorded] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'saved' | 'error'; text: string } | null>(null);
  // What the customer will see from a move that is more than the next step, waiting for a "yes".
  const [confirming, setConfirming] = useState<string[] | null>(null);

  const change = staffApi.changeOrder.useMutation({
    onSuccess: (saved) => {
      setOrder(saved);
      const noted = Boolean(note.trim());
      setOutcome({
        kind: 'saved',
        text: saved.status !== order.status ? t('saved', { status: ts(`status.${saved.status}`) }) : noted ? t('savedNote') : t('savedTracking'),
      });
      setNote('');
      setTarget(suggested(saved));
      router.refresh();
    },
    onError: (error) => {
      const code = error.data?.appCode;
      const stale = error.data?.details?.some((d) => d.path === 'version');
      const text =
        error.data?.httpStatus === 401
          ? t('errors.signedOut')
          : stale
            ? t('errors.stale')
            : code === 'invalid_transition'
              ? t('errors.notAllowed')
              : code === 'invalid_input'
                ? t('errors.invalid')
                : code === 'not_found'
                  ? t('errors.notFound')
                  : t('errors.failed');
      setOutcome({ kind: 'error', text });
      // Someone else's change, or a move no longer allowed: show the order as it now is.
      if (stale || code === 'invalid_transition') router.refresh();
    },
  });

  const options: OrderStatus[] = [...order.moves.filter((m) => m !== 'cancelled'), order.status, ...order.moves.filter((m) => m === 'cancelled')];
  const noteOnly = target === order.status;
  const showTracking = trackedStatuses.includes(target);
  // A decision the customer gave another way (by phone, say) is recorded once the order is in
  // sketching; the sketch itself is asked for by adding a sketch photo.
  const showSketch = order.kind === 'custom' && target === 'sketching' && order.status === 'sketching';
  // Painting starts from an approved sketch: one still waiting, or sent back for changes, is
  // approved here only as the studio's record of the customer's yes given another way.
  const needsApproval =
    order.kind === 'custom' &&
    (order.sketchStatus === 'pending' || order.sketchStatus === 'changes_requested') &&
    target !== 'cancelled' &&
    chainIndex(target) >= chainIndex(paintingStarts);
  // On shipped or delivered a corrected tracking number (or its carrier) is a change of its own, note or not.
  const carrierChanged = showTracking && tracking.trim() !== '' && carrier !== (order.carrier ?? '');
  const trackingChanged = (showTracking && tracking.trim() !== (order.trackingNumber ?? '') && tracking.trim() !== '') || carrierChanged;

  /**
   * A move the customer should not see by mistake: payment marked by hand, steps skipped (shown to
   * the customer as done). Each gets one sentence.
   */
  const warnings = (): string[] => {
    const unrefunded = order.payment.paid - order.payment.refunded;
    if (target === 'cancelled' && !noteOnly && unrefunded > 0) return [t('confirm.unrefunded', { amount: money(unrefunded, locale) })];
    if (noteOnly || target === 'cancelled') return [];
    const from = chainIndex(order.status);
    const to = chainIndex(target);
    const lines: string[] = [];
    if (order.status === 'pending') lines.push(t('confirm.paidByHand'));
    const skipped = statusChain.slice(from + 1, to).filter((s) => s !== 'paid' || order.status !== 'pending');
    if (skipped.length) lines.push(t('confirm.skip', { steps: skipped.map((s) => `“${ts(`status.${s}`)}”`).join(', ') }));
    return lines;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    const lines = confirming ? [] : warnings();
    if (lines.length) return setConfirming(lines);
    setConfirming(null);
    change.mutate({
      code: order.code,
      version: order.version,
      locale,
      status: target,
      note: note.trim() || undefined,
      trackingNumber: showTracking ? tracking.trim() || undefined : undefined,
      carrier: carrierChanged ? carrier || null : undefined,
      sketchStatus: showSketch ? sketch : needsApproval ? 'approved' : undefined,
    });
  };

  return (
    <section className={styles.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('title')}</h2>
      {order.moves.length === 0 && <p className={styles.hint}>{t('final', { status: ts(`status.${order.status}`) })}</p>}
      <form onSubmit={submit} className={styles.form}>
        <div className={styles.field}>
          <label htmlFor={`${id}-status`}>{t('moveTo')}</label>
          <select
            id={`${id}-status`}
            value={target}
            onChange={(e) => {
              setTarget(e.target.value as OrderStatus);
              setConfirming(null);
            }}
          >
            {options.map((s) => (
              <option key={s} value={s}>
                {s === order.status ? t('keep', { status: ts(`status.${s}`) }) : ts(`status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        {showSketch && (
          <div className={styles.field}>
            <label htmlFor={`${id}-sketch`}>{t('sketch')}</label>
            <select id={`${id}-sketch`} value={sketch} onChange={(e) => setSketch(e.target.value as Sketch)}>
              {sketchDecisions.map((s) => (
                <option key={s} value={s}>
                  {ts(`sketch.${s}`)}
                </option>
              ))}
            </select>
          </div>
        )}
        {needsApproval && (
          <div className={styles.check}>
            <input
              id={`${id}-approval`}
              type="checkbox"
              checked={approvalRecorded}
              onChange={(e) => setApprovalRecorded(e.target.checked)}
              aria-describedby={`${id}-approval-hint`}
            />
            <label htmlFor={`${id}-approval`}>{t('recordApproval.label')}</label>
            <p id={`${id}-approval-hint`} className={styles.hint}>
              {t(`recordApproval.${order.sketchStatus === 'changes_requested' ? 'changes' : 'pending'}`)}
            </p>
          </div>
        )}
        {showTracking && (
          <div className={styles.field}>
            <label htmlFor={`${id}-tracking`}>{t('tracking')}</label>
            <input id={`${id}-tracking`} value={tracking} onChange={(e) => setTracking(e.target.value)} maxLength={100} autoComplete="off" spellCheck={false} />
          </div>
        )}
        {showTracking && (
          <div className={styles.field}>
            <label htmlFor={`${id}-carrier`}>{t('carrier')}</label>
            {/* A carrier links a number: without one there is nothing to choose it for. */}
            <select id={`${id}-carrier`} value={carrier} onChange={(e) => setCarrier(e.target.value as Carrier | '')} disabled={!tracking.trim()}>
              <option value="">{t('carrierNone')}</option>
              {carriers.map((c) => (
                <option key={c} value={c}>
                  {carrierName(c, locale)}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className={styles.field}>
          <label htmlFor={`${id}-note`}>{t('note')}</label>
          <textarea id={`${id}-note`} value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} rows={3} aria-describedby={`${id}-note-hint`} />
          <p id={`${id}-note-hint`} className={styles.hint}>
            {t('noteHint')}
          </p>
        </div>
        {confirming ? (
          <div className={styles.confirm} role="alertdialog" aria-labelledby={`${id}-confirm-title`} data-testid="confirm-move">
            <p id={`${id}-confirm-title`} className={styles.confirmTitle}>
              {t('confirm.title')}
            </p>
            {confirming.map((line) => (
              <p key={line}>{line}</p>
            ))}
            <div className={styles.confirmButtons}>
              <button type="submit" className={styles.primaryButton} disabled={change.isPending} autoFocus>
                {t('confirm.yes', { status: ts(`status.${target}`) })}
              </button>
              <button type="button" className={styles.secondaryButton} onClick={() => setConfirming(null)}>
                {t('confirm.no')}
              </button>
            </div>
          </div>
        ) : (
          <button
            type="submit"
            className={target === 'cancelled' ? styles.dangerButton : styles.primaryButton}
            disabled={
              change.isPending || (needsApproval && !approvalRecorded) || (noteOnly && !note.trim() && !trackingChanged && !(showSketch && sketch !== order.sketchStatus))
            }
          >
            {change.isPending ? t('saving') : noteOnly ? (trackingChanged && !note.trim() ? t('saveTracking') : t('addNote')) : t('move', { status: ts(`status.${target}`) })}
          </button>
        )}
        <p
          role="status"
          aria-live={outcome?.kind === 'error' ? 'assertive' : 'polite'}
          className={outcome ? (outcome.kind === 'error' ? styles.error : styles.notice) : undefined}
          data-testid="order-outcome"
        >
          {outcome?.text}
        </p>
      </form>
    </section>
  );
}
