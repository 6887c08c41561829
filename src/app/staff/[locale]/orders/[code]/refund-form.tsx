'use client';

import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { useId, useState, type FormEvent } from 'react';
import { staffApi } from '../../../_lib/trpc';
import { money } from '../../../_lib/format';
import styles from '../../staff.module.css';

interface Props {
  code: string;
  /** Cents left to refund. */
  left: number;
  /** The money came through Stripe (and the shop has Stripe): it goes back through Stripe. */
  throughStripe: boolean;
  /** A refund of everything left cancels the order (it is not in production yet). */
  cancelsWhenAll: boolean;
}

/** Dollars as typed (`12`, `12.5`, `12,50`) → cents, or null when it is not an amount. */
function centsOf(typed: string): number | null {
  const match = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(typed);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents >= 1 ? cents : null;
}

/**
 * "Refund" on the staff order page: the amount prefilled with what is left, a note the customer
 * sees, and a confirmation that names the amount and where the money goes. The key made at the
 * confirmation goes with the request, so a double click or a retry gives back once.
 */
export function RefundForm({ code, left, throughStripe, cancelsWhenAll }: Props) {
  const t = useTranslations('Staff.payment.refund');
  const locale = useLocale();
  const router = useRouter();
  const id = useId();
  const [amount, setAmount] = useState((left / 100).toFixed(2));
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState<{ cents: number; key: string } | null>(null);
  const [outcome, setOutcome] = useState<{ kind: 'done' | 'error'; text: string } | null>(null);
  const refund = staffApi.refund.useMutation({
    onSuccess: (made) => {
      setConfirming(null);
      setOutcome({ kind: 'done', text: t('done', { amount: money(made.amount, locale) }) });
      setNote('');
      // What is left now, as the page's fresh render will say.
      setAmount((Math.max(0, left - made.amount) / 100).toFixed(2));
      router.refresh();
    },
    onError: (error) => {
      const code = error.data?.appCode;
      const reason = error.message.replace(/^Stripe refused the refund: /, '');
      const text =
        error.data?.httpStatus === 401
          ? t('errors.signedOut')
          : code === 'nothing_to_refund' || code === 'refund_too_large' || code === 'unavailable'
            ? t(`errors.${code}`)
            : code === 'refund_refused'
              ? t('errors.refund_refused', { reason })
              : code === 'invalid_input'
                ? t('errors.invalid')
                : t('errors.failed');
      setConfirming(null);
      setOutcome({ kind: 'error', text });
      router.refresh();
    },
  });
  const cents = centsOf(amount);
  const tooMuch = cents !== null && cents > left;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    if (cents === null || tooMuch) return setOutcome({ kind: 'error', text: tooMuch ? t('errors.refund_too_large') : t('errors.invalid') });
    if (!confirming) return setConfirming({ cents, key: crypto.randomUUID() });
    refund.mutate({ code, amount: confirming.cents, note: note.trim() || undefined, idempotencyKey: confirming.key });
  };

  return (
    <form onSubmit={submit} className={styles.form} data-testid="refund-form">
      <h3 className={styles.subhead}>{t('title')}</h3>
      <p className={styles.hint}>{t('left', { amount: money(left, locale) })}</p>
      <div className={styles.field}>
        <label htmlFor={`${id}-amount`}>{t('amount')}</label>
        <input
          id={`${id}-amount`}
          value={amount}
          onChange={(e) => (setAmount(e.target.value), setConfirming(null))}
          inputMode="decimal"
          autoComplete="off"
          aria-invalid={cents === null || tooMuch}
        />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-note`}>{t('note')}</label>
        <textarea id={`${id}-note`} value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} rows={2} />
      </div>
      {confirming ? (
        <div className={styles.confirm} role="alertdialog" aria-labelledby={`${id}-confirm`} data-testid="confirm-refund">
          <p id={`${id}-confirm`} className={styles.confirmTitle}>
            {t('confirm', { amount: money(confirming.cents, locale) })}
          </p>
          <p>{throughStripe ? t('stripe') : t('manual')}</p>
          {cancelsWhenAll && confirming.cents === left && <p>{t('cancels')}</p>}
          <div className={styles.confirmButtons}>
            <button type="submit" className={styles.dangerButton} disabled={refund.isPending} autoFocus>
              {refund.isPending ? t('busy') : t('yes', { amount: money(confirming.cents, locale) })}
            </button>
            <button type="button" className={styles.secondaryButton} onClick={() => setConfirming(null)} disabled={refund.isPending}>
              {t('no')}
            </button>
          </div>
        </div>
      ) : (
        <button type="submit" className={styles.secondaryButton}>
          {t('submit')}
        </button>
      )}
      <p
        role="status"
        aria-live={outcome?.kind === 'error' ? 'assertive' : 'polite'}
        className={outcome ? (outcome.kind === 'error' ? styles.error : styles.notice) : undefined}
        data-testid="refund-outcome"
      >
        {outcome?.text}
      </p>
    </form>
  );
}
