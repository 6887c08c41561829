'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { rememberEmail } from '@/components/order-status/remembered-email';
import { CustomerFields, customerFieldId, customerFieldOf, isRateLimited, problemsOf, useCustomerForm, type CustomerProblems } from '@/components/order';
import { FormError } from '@/components/order/checkout';
import { LegalLinks } from '@/components/site/legal-links';
import { Button } from '@/components/ui/button';
import { TextAreaField } from '@/components/ui/field';
import { useRouter } from '@/i18n/navigation';
import type { BasketEntry } from '@/shared/basket-schema';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import type { PaymentMode } from '@/shared/payment';
import { trpc } from '@/trpc/react';
import type { Unpayable } from './basket-line';
import { useBasket } from './use-basket';
import styles from './basket.module.css';

const ID = 'basket';
const NOTES_MAX = 2000;

interface Props {
  /** The entries that can be ordered now, in the basket's order. */
  entries: readonly BasketEntry[];
  /** How many stay behind (no longer orderable). */
  left: number;
  total: string;
  cents: number | null;
  /** When everything should have arrived ("16–22 Dec 2026"), or null with nothing to order. */
  arrival: string | null;
  paymentMode: PaymentMode;
  /** Entries the server refused, and why, so their lines say so. */
  onRefused: (refused: Map<string, Unpayable>) => void;
}

/** `items[2].uploadId` (the service's refusals) or `items.2.uploadId` (the contract's): the item and its field. */
function itemOf(path: string): { index: number; field: string } | null {
  const match = /^items(?:\[(\d+)\]|\.(\d+))\.?(\w*)/.exec(path);
  return match ? { index: Number(match[1] ?? match[2]), field: match[3] ?? '' } : null;
}

/**
 * One customer form and one payment for the whole basket: `checkouts.create` orders every work
 * that can be ordered (all or none), then the browser goes to Stripe Checkout, or to the basket's
 * page with how to pay. The works ordered leave the basket; the e-mail is kept for this tab so the
 * basket's and the orders' pages open without asking for it.
 */
export function BasketCheckout({ entries, left, total, cents, arrival, paymentMode, onRefused }: Props) {
  const t = useTranslations('Basket');
  const form = useTranslations('OrderForm');
  const locale = useLocale() as Locale;
  const router = useRouter();
  const customer = useCustomerForm();
  const { remove } = useBasket();
  const create = trpc.checkouts.create.useMutation();
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [navigating, setNavigating] = useState(false);
  const busy = create.isPending || navigating;
  const notesError = notes.length > NOTES_MAX ? form('errors.tooLong', { max: NOTES_MAX }) : null;

  const focusFirst = (problems: CustomerProblems) => {
    const field = (Object.keys(problems) as (keyof CustomerProblems)[])[0];
    if (field) document.getElementById(customerFieldId(ID, field))?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const checked = customer.validate();
    if (!checked.customer) {
      setError(form('problemSummary'));
      return focusFirst(checked.problems);
    }
    if (notesError) return document.getElementById(`${ID}-notes`)?.focus();
    const email = checked.customer.email.trim();
    try {
      const created = await create.mutateAsync({
        items: entries.map((entry) => entry.item),
        customer: checked.customer,
        locale,
        ...(notes.trim() ? { notes: notes.trim() } : {}),
      });
      rememberEmail(created.code, email);
      for (const order of created.orders) rememberEmail(order.code, email);
      setNavigating(true);
      // Ordered: out of the basket, whatever happens to the payment (the basket's page pays later).
      await remove(entries.map((entry) => entry.id));
      if (created.checkoutUrl) window.location.assign(created.checkoutUrl);
      else router.push({ pathname: pagePath.basket(created.code), query: { placed: '1' } });
    } catch (failure) {
      if (isRateLimited(failure)) return setError(form('rateLimited'));
      const problems = problemsOf(failure);
      if (!problems) return setError(form('failed'));
      const refused = new Map<string, Unpayable>();
      const fields: CustomerProblems = {};
      for (const problem of problems) {
        const field = customerFieldOf(problem.path);
        if (field) fields[field] = { key: 'invalid' };
        const item = itemOf(problem.path);
        const entry = item ? entries[item.index] : undefined;
        if (entry) refused.set(entry.id, item!.field === 'uploadId' ? 'photoGone' : 'unavailable');
      }
      customer.setErrors(fields);
      if (refused.size) onRefused(refused);
      setError(refused.size ? t('refused', { count: refused.size }) : form('problemSummary'));
      focusFirst(fields);
    }
  };

  return (
    <form className={styles.checkout} onSubmit={onSubmit} noValidate aria-labelledby={`${ID}-details`} aria-describedby={error ? `${ID}-error` : undefined}>
      <h2 id={`${ID}-details`}>{t('details')}</h2>
      <CustomerFields value={customer.value} onChange={customer.onChange} errors={customer.errors} onBlur={customer.onBlur} idPrefix={ID} />
      <TextAreaField
        id={`${ID}-notes`}
        name="notes"
        label={t('notesLabel')}
        hint={form('notesHint')}
        optionalText={form('optional')}
        value={notes}
        maxLength={NOTES_MAX}
        rows={3}
        error={notesError}
        onChange={(e) => setNotes(e.target.value)}
      />
      <p className={styles.total}>
        <span>{t('total')}</span>
        <output aria-live="polite" data-testid="basket-total" data-cents={cents ?? undefined}>
          {total}
        </output>
      </p>
      <p className={styles.note}>{form('priceNote')}</p>
      {arrival ? <p className={styles.note}>{t('arrivesAll', { range: arrival })}</p> : null}
      {left > 0 ? <p className={styles.note}>{t('left', { count: left })}</p> : null}
      {error ? <FormError id={`${ID}-error`}>{error}</FormError> : null}
      <Button type="submit" variant="primary" wide disabled={busy || entries.length === 0}>
        {busy ? form('submitting') : t('pay', { count: entries.length, price: total, mode: paymentMode })}
      </Button>
      <p className={styles.note}>{form(`paymentNotes.${paymentMode}`)}</p>
      <LegalLinks kind={entries.some((entry) => entry.item.kind === 'custom') ? 'custom' : 'order'} />
    </form>
  );
}
