'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { staffApi } from '../../_lib/trpc';
import styles from '../staff.module.css';

/** As the server's contract (src/server/partners/schema.ts) allows; checked here first to say what is wrong beside the field. */
const DEFAULT_ORDERS = '1000';
/** Lower than orders: 100 photos of up to 20 MB are 2 GB an hour (the server's DEFAULT_PARTNER_UPLOADS says why). */
const DEFAULT_UPLOADS = '100';
const MAX_ALLOWANCE = 100_000;

type Field = 'name' | 'orders' | 'uploads';

const allowanceOf = (text: string): number | null => {
  const n = Number(text.trim());
  return /^\d+$/.test(text.trim()) && Number.isSafeInteger(n) && n >= 1 && n <= MAX_ALLOWANCE ? n : null;
};

/**
 * Makes a key: a name and the two allowances. The key comes back once, in the answer, and is shown
 * here with a copy button until staff say they have it; the page never holds it afterwards and
 * the server never had it in storage.
 */
export function NewPartnerKey() {
  const t = useTranslations('Staff.partners');
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState('');
  const [orders, setOrders] = useState(DEFAULT_ORDERS);
  const [uploads, setUploads] = useState(DEFAULT_UPLOADS);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [made, setMade] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const madeHeading = useRef<HTMLHeadingElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const ordersInput = useRef<HTMLInputElement>(null);
  const uploadsInput = useRef<HTMLInputElement>(null);
  const inputs = { name: nameInput, orders: ordersInput, uploads: uploadsInput };

  // The new key is what matters now: a screen reader hears its heading, a keyboard starts there.
  useEffect(() => {
    if (made) madeHeading.current?.focus();
  }, [made]);

  const create = staffApi.partners.create.useMutation({
    onSuccess: (answer) => {
      setMade({ name: answer.partner.name, key: answer.key });
      setCopied(null);
      setName('');
      setOrders(DEFAULT_ORDERS);
      setUploads(DEFAULT_UPLOADS);
      router.refresh();
    },
    onError: (error) => setFailure(error.data?.httpStatus === 401 ? t('errors.signedOut') : error.data?.appCode === 'invalid_input' ? t('errors.invalid') : t('errors.failed')),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const ordersPerHour = allowanceOf(orders);
    const uploadsPerHour = allowanceOf(uploads);
    const found: Partial<Record<Field, string>> = {};
    if (!name.trim()) found.name = t('errors.name');
    if (ordersPerHour === null) found.orders = t('errors.allowance');
    if (uploadsPerHour === null) found.uploads = t('errors.allowance');
    setErrors(found);
    const first = (['name', 'orders', 'uploads'] as const).find((f) => found[f]);
    if (first || ordersPerHour === null || uploadsPerHour === null) {
      // The first field to fix takes the focus; its message is read with it (aria-describedby).
      if (first) inputs[first].current?.focus();
      return;
    }
    create.mutate({ name: name.trim(), ordersPerHour, uploadsPerHour });
  };

  const copy = async () => {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.key);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };

  const field = (key: Field, label: string, input: ReactNode, hint?: string) => (
    <div className={styles.field}>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      {input}
      {hint && (
        <p id={`${id}-${key}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
      {errors[key] && (
        <p id={`${id}-${key}-error`} className={styles.fieldError}>
          {errors[key]}
        </p>
      )}
    </div>
  );
  const describedBy = (key: Field, hint: boolean) => [hint ? `${id}-${key}-hint` : '', errors[key] ? `${id}-${key}-error` : ''].filter(Boolean).join(' ') || undefined;
  const allowanceInput = (key: 'orders' | 'uploads', value: string, set: (v: string) => void) => (
    <input
      ref={inputs[key]}
      id={`${id}-${key}`}
      type="number"
      inputMode="numeric"
      min={1}
      max={MAX_ALLOWANCE}
      step={1}
      required
      value={value}
      onChange={(e) => set(e.target.value)}
      aria-invalid={errors[key] ? true : undefined}
      aria-describedby={describedBy(key, key === 'orders')}
    />
  );

  return (
    <section className={styles.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('create.title')}</h2>
      {made && (
        <div className={`${styles.confirm} ${styles.newKey}`} data-testid="new-partner-key">
          <h3 ref={madeHeading} tabIndex={-1} className={styles.confirmTitle}>
            {t('made.title', { name: made.name })}
          </h3>
          <p id={`${id}-made-warning`}>{t('made.warning')}</p>
          <label htmlFor={`${id}-made-key`} className={styles.visuallyHidden}>
            {t('made.label')}
          </label>
          <input id={`${id}-made-key`} readOnly value={made.key} spellCheck={false} aria-describedby={`${id}-made-warning`} onFocus={(e) => e.currentTarget.select()} />
          <p className={styles.hint}>
            {t('made.usage')} <code>Authorization: Bearer {made.key.slice(0, 12)}…</code>
          </p>
          <div className={styles.confirmButtons}>
            <button type="button" className={styles.primaryButton} onClick={copy}>
              {t('made.copy')}
            </button>
            <button type="button" className={styles.secondaryButton} onClick={() => setMade(null)}>
              {t('made.done')}
            </button>
          </div>
          <p role="status" aria-live="polite" className={styles.hint}>
            {copied === 'yes' ? t('made.copied') : copied === 'no' ? t('made.copyFailed') : ''}
          </p>
        </div>
      )}
      <form onSubmit={submit} className={styles.form} noValidate>
        {field(
          'name',
          t('create.name'),
          <input
            ref={nameInput}
            id={`${id}-name`}
            type="text"
            required
            maxLength={100}
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy('name', true)}
          />,
          t('create.nameHint'),
        )}
        {field('orders', t('create.ordersPerHour'), allowanceInput('orders', orders, setOrders), t('create.allowanceHint'))}
        {field('uploads', t('create.uploadsPerHour'), allowanceInput('uploads', uploads, setUploads))}
        <button type="submit" className={styles.primaryButton} disabled={create.isPending}>
          {create.isPending ? t('create.creating') : t('create.submit')}
        </button>
        <p role="alert" className={failure ? styles.error : undefined} data-testid="partner-key-failure">
          {failure}
        </p>
      </form>
    </section>
  );
}

/**
 * Revokes one key, after a confirmation in place (it cannot be undone: the partner's requests are
 * refused from the next one on). Stays in its cell once the key is revoked, to say so.
 */
export function RevokePartnerKey({ id: keyId, name, revoked }: { id: string; name: string; revoked: boolean }) {
  const t = useTranslations('Staff.partners');
  const router = useRouter();
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'done' | 'error'; text: string } | null>(null);
  const revoke = staffApi.partners.revoke.useMutation({
    onSuccess: () => {
      setConfirming(false);
      setOutcome({ kind: 'done', text: t('revoke.done', { name }) });
      router.refresh();
    },
    onError: (error) => setOutcome({ kind: 'error', text: error.data?.httpStatus === 401 ? t('errors.signedOut') : t('revoke.failed') }),
  });

  return (
    <div>
      {!revoked &&
        (confirming ? (
          <div className={styles.confirm} role="alertdialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`}>
            <p id={`${id}-title`} className={styles.confirmTitle}>
              {t('revoke.confirmTitle', { name })}
            </p>
            <p id={`${id}-text`}>{t('revoke.confirmText')}</p>
            <div className={styles.confirmButtons}>
              <button type="button" className={styles.dangerButton} disabled={revoke.isPending} onClick={() => revoke.mutate({ id: keyId })}>
                {revoke.isPending ? t('revoke.revoking') : t('revoke.yes')}
              </button>
              <button type="button" className={styles.secondaryButton} onClick={() => setConfirming(false)} autoFocus>
                {t('revoke.no')}
              </button>
            </div>
          </div>
        ) : (
          <button type="button" className={styles.quietButton} onClick={() => (setOutcome(null), setConfirming(true))} aria-label={t('revoke.label', { name })}>
            {t('revoke.button')}
          </button>
        ))}
      <p role="status" aria-live={outcome?.kind === 'error' ? 'assertive' : 'polite'} className={outcome?.kind === 'error' ? styles.fieldError : styles.sub}>
        {outcome?.text}
      </p>
    </div>
  );
}
