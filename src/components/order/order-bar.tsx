'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState, type RefObject } from 'react';
import { Button } from '@/components/ui/button';
import styles from './order.module.css';

interface Props {
  /** The form the bar's button submits (it sits outside it, fixed to the screen's bottom). */
  formId: string;
  /** The form's own order button: while it is on screen the bar steps aside. */
  checkout: RefObject<HTMLElement | null>;
  price: string;
  /** What the price is for, in a few words ("70 × 50 cm · Stretched"). */
  summary: string;
  busy?: boolean;
}

/**
 * On a phone the total and the order button sit at the end of a long page: this bar keeps them in
 * reach at the bottom of the screen (hidden from 64rem up, where the total is beside the choices).
 * Its button submits the same form, so it checks the same fields and moves to the first one
 * missing. It steps aside while the form's own button is visible, so there is one button at a time.
 */
export function OrderBar({ formId, checkout, price, summary, busy = false }: Props) {
  const t = useTranslations('OrderForm.bar');
  const [checkoutInView, setCheckoutInView] = useState(false);

  useEffect(() => {
    const target = checkout.current;
    if (!target) return;
    const observer = new IntersectionObserver(([entry]) => setCheckoutInView(entry?.isIntersecting ?? false));
    observer.observe(target);
    return () => observer.disconnect();
  }, [checkout]);

  return (
    <div className={styles.bar} hidden={checkoutInView} data-testid="order-bar">
      <p className={styles.barTotal}>
        <span className={styles.barPrice}>{price}</span>
        <span className={styles.barSummary}>{summary}</span>
      </p>
      <Button type="submit" form={formId} variant="primary" disabled={busy}>
        {t('order')}
      </Button>
    </div>
  );
}
