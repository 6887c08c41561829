'use client';

import { useTranslations } from 'next-intl';
import type { ReactNode, RefObject } from 'react';
import { LegalLinks } from '@/components/site/legal-links';
import { Button } from '@/components/ui/button';
import type { Size } from '@/shared/canvas';
import type { OrderKind } from '@/shared/orders';
import type { PaymentMode } from '@/shared/payment';
import { DeliveryEstimate } from './delivery-estimate';
import styles from './order.module.css';

interface Props {
  kind: OrderKind;
  size: Size;
  /** The total as shown ("$290") and in cents (null until the price table has arrived). */
  price: string;
  cents: number | null;
  total: { label: string; note: string; testId: string };
  submitLabel: string;
  /** Why the last attempt failed, shown above the button; `id` lets the form point at it. */
  error: { id: string; message: string } | null;
  paymentMode: PaymentMode;
  /** The form's own order button, watched by the phone's order bar (`OrderBar`). */
  buttonRef: RefObject<HTMLButtonElement | null>;
  busy: boolean;
  /** "Add to basket", under the order button (src/components/basket). */
  addToBasket?: ReactNode;
}

/**
 * The end of both order forms (a reproduction, a custom painting): the total, when the painting
 * arrives, why the last attempt failed, the order button, how payment goes and the terms that
 * apply. One block so both forms say the same things the same way, spaced the same; the page
 * around it places it (a box of its own on the artwork page, the end of the custom page's summary).
 * While the order is sent the button is disabled (a second click cannot send a second order) and
 * says so in its text.
 */
export function OrderCheckout({ kind, size, price, cents, total, submitLabel, error, paymentMode, buttonRef, busy, addToBasket }: Props) {
  const t = useTranslations('OrderForm');
  return (
    <div className={styles.checkout}>
      <p className={styles.total}>
        <span className={styles.totalLabel}>{total.label}</span>
        <output className={styles.totalPrice} aria-live="polite" data-testid={total.testId} data-cents={cents ?? undefined}>
          {price}
        </output>
      </p>
      <p className={styles.note}>{total.note}</p>
      <DeliveryEstimate kind={kind} size={size} />
      {error ? <FormError id={error.id}>{error.message}</FormError> : null}
      <Button ref={buttonRef} type="submit" variant="primary" wide disabled={busy}>
        {busy ? t('submitting') : submitLabel}
      </Button>
      {addToBasket}
      <p className={styles.note}>{t(`paymentNotes.${paymentMode}`)}</p>
      <LegalLinks kind={kind === 'custom' ? 'custom' : 'order'} />
    </div>
  );
}

/** What went wrong, for the shopper to read before trying again (announced at once): one look in both forms. */
export function FormError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className={styles.formError} role="alert">
      {children}
    </p>
  );
}
