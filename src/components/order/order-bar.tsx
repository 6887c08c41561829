'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Button } from '@/components/ui/button';
import styles from './order.module.css';

interface Props {
  /** The form the bar leads to (it sits outside it, fixed to the screen's bottom). */
  formId: string;
  /** Where the choices start (size, finish; the photo on the custom page): the bar shows them first. */
  choices: RefObject<HTMLElement | null>;
  /** False while a choice is still missing (the custom painting's photo): the bar keeps going back to them. */
  choicesComplete?: boolean;
  /** The form's own order button: while it is on screen the bar steps aside. */
  checkout: RefObject<HTMLElement | null>;
  price: string;
  /** What the price is for, in a few words ("70 × 50 cm · Stretched"). */
  summary: string;
  busy?: boolean;
}

/** The form's first text field that must be filled and is still empty, if nothing has been typed in any. */
function untouchedStart(form: HTMLFormElement): HTMLElement | null {
  const fields = [...form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[required], textarea[required]')].filter(
    (field) => !field.disabled && field.type !== 'file' && field.type !== 'hidden',
  );
  if (fields.some((field) => field.value.trim() !== '')) return null;
  return fields[0] ?? null;
}

/**
 * On a phone the total and the order button sit at the end of a long page: this bar keeps them in
 * reach at the bottom of the screen (hidden from 64rem up, where the total is beside the choices).
 * It leads the shopper through the form rather than past it: until the choices have been on
 * screen (and while one is missing) it scrolls to them; while nothing is typed it goes to the first field to fill, with no
 * error shown; once the shopper has begun, it submits the same form, which checks the same fields.
 * It steps aside while the form's own button is visible, so there is one button at a time.
 */
export function OrderBar({ formId, choices, choicesComplete = true, checkout, price, summary, busy = false }: Props) {
  const t = useTranslations('OrderForm.bar');
  const [checkoutInView, setCheckoutInView] = useState(false);
  const choicesSeen = useRef(false);

  useEffect(() => {
    const target = checkout.current;
    if (!target) return;
    const observer = new IntersectionObserver(([entry]) => setCheckoutInView(entry?.isIntersecting ?? false));
    observer.observe(target);
    return () => observer.disconnect();
  }, [checkout]);

  useEffect(() => {
    const target = choices.current;
    if (!target) return;
    // Seen once a good part of them has been on screen; the bar then moves on to the form.
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry?.isIntersecting) choicesSeen.current = true;
      },
      { threshold: 0.25 },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [choices]);

  const order = () => {
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    const smooth = window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
    if ((!choicesSeen.current || !choicesComplete) && choices.current) {
      choicesSeen.current = true;
      choices.current.scrollIntoView({ behavior: smooth, block: 'start' });
      return;
    }
    const start = untouchedStart(form);
    if (start) {
      start.focus({ preventScroll: true });
      start.scrollIntoView({ behavior: smooth, block: 'center' });
      return;
    }
    form.requestSubmit();
  };

  return (
    <div className={styles.bar} hidden={checkoutInView} data-testid="order-bar">
      <p className={styles.barTotal}>
        <span className={styles.barPrice}>{price}</span>
        <span className={styles.barSummary}>{summary}</span>
      </p>
      <Button type="button" variant="primary" disabled={busy} onClick={order}>
        {t('order')}
      </Button>
    </div>
  );
}
