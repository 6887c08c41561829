'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useRef, useState, type FormEvent } from 'react';
import {
  CustomerFields,
  customerFieldId,
  customerFieldOf,
  customerFields,
  customerInput,
  customerProblems,
  SizeFramePicker,
  usePrice,
  useCustomerForm,
  useSubmitOrder,
  canvasCm,
  FitChoice,
  fitMatters,
  OrderBar,
  ShowcaseConsent,
  type CustomerProblems,
  type OrderBody,
  type PriceTableData,
} from '@/components/order';
import { AddToBasket } from '@/components/basket/add-to-basket';
import { OrderCheckout } from '@/components/order/checkout';
import { TextAreaField } from '@/components/ui/field';
import { WallPreview } from '@/components/wall-preview';
import { formatSize, formatUsd } from '@/lib/format';
import { orientationOf, type Fit, type Frame, type Size } from '@/shared/canvas';
import type { PaymentMode } from '@/shared/payment';
import { CreateOrder } from '@/shared/order-schema';
import type { Locale } from '@/shared/locales';
import styles from './artwork-page.module.css';

interface Props {
  slug: string;
  /** The painting's picture for the wall preview (our /images route). */
  imageSrc: string;
  alt: string;
  /** Width / height of the original, so the canvas is turned the way the painting is. */
  ratio: number | null;
  initialPrices: PriceTableData;
  /** How this shop takes payment, so the note under the button says what happens next. */
  paymentMode: PaymentMode;
}

const ID = 'order';

/**
 * The reproduction order: size and finish with live prices, the wall preview beside them, then the
 * customer's details and notes. The body is checked with the server's own `CreateOrder` schema
 * before it is sent; what the server still refuses is shown on the field it names.
 */
export function ArtworkOrder({ slug, imageSrc, alt, ratio, initialPrices, paymentMode }: Props) {
  const t = useTranslations('OrderForm');
  const locale = useLocale() as Locale;
  const [size, setSize] = useState<Size>('50x70');
  const [frame, setFrame] = useState<Frame>('stretched');
  const [notes, setNotes] = useState('');
  const [notesTooLong, setNotesTooLong] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const customer = useCustomerForm();
  const { cents } = usePrice({ kind: 'reproduction', size, frame }, initialPrices);
  const { submit, isPending } = useSubmitOrder();
  // The canvas hangs the way the painting does; the order says so, as this form shows it.
  const orientation = orientationOf(ratio, 1);
  const canvas = canvasCm(size, orientation);
  const [fit, setFit] = useState<Fit>('whole');
  const [showcase, setShowcase] = useState(false);
  const price = cents == null ? '—' : formatUsd(cents, locale);
  const orderButton = useRef<HTMLButtonElement>(null);
  const choices = useRef<HTMLDivElement>(null);

  const focusFirst = (problems: CustomerProblems, notesProblem: boolean) => {
    const field = customerFields.find((f) => problems[f]);
    const id = field ? customerFieldId(ID, field) : notesProblem ? `${ID}-notes` : null;
    if (id) document.getElementById(id)?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const body: OrderBody = {
      kind: 'reproduction',
      artworkSlug: slug,
      size,
      frame,
      orientation,
      fit,
      showcaseConsent: showcase,
      locale,
      ...(notes.trim() ? { notes: notes.trim() } : {}),
      customer: customerInput(customer.value),
    };
    // The server's contract decides; the customer part gives each field its own message.
    const { problems } = customer.validate();
    const parsed = CreateOrder.safeParse(body);
    const notesProblem = !parsed.success && parsed.error.issues.some((issue) => issue.path[0] === 'notes');
    setNotesTooLong(notesProblem);
    if (!parsed.success) {
      setFormError(t('problemSummary'));
      focusFirst(problems, notesProblem);
      return;
    }
    const outcome = await submit(body);
    if (outcome.ok) return;
    if (outcome.kind === 'failed' || outcome.kind === 'rateLimited') {
      setFormError(t(outcome.kind));
      return;
    }
    const fromServer: CustomerProblems = {};
    const local = customerProblems(customer.value);
    for (const problem of outcome.problems) {
      const field = customerFieldOf(problem.path);
      if (field) fromServer[field] = local[field] ?? { key: 'invalid' };
    }
    customer.setErrors(fromServer);
    const unknownWork = outcome.problems.some((p) => p.path === 'artworkSlug');
    setFormError(unknownWork ? t('unavailable') : t('problemSummary'));
    focusFirst(fromServer, false);
  };

  return (
    <div className={styles.order}>
      <div className={styles.orderPicker} ref={choices}>
        <SizeFramePicker
          size={size}
          frame={frame}
          onChange={(s, f) => {
            setSize(s);
            setFrame(f);
          }}
          ratio={ratio}
          initialPrices={initialPrices}
          fitPreview={{ imageSrc, fit }}
          afterSizes={fitMatters(ratio, canvas) ? <FitChoice idPrefix={ID} ratio={ratio!} canvas={canvas} imageSrc={imageSrc} value={fit} onChange={setFit} /> : null}
          idPrefix={ID}
        />
      </div>

      <div className={styles.orderPreview}>
        <WallPreview
          widthCm={canvas.widthCm}
          heightCm={canvas.heightCm}
          frame={frame}
          imageSrc={imageSrc}
          alt={alt}
          fit={ratio == null ? undefined : { ratio, fit }}
          headingLevel={3}
        />
      </div>

      <form id={`${ID}-form`} className={styles.orderForm} onSubmit={onSubmit} noValidate aria-describedby={formError ? `${ID}-summary` : undefined}>
        <fieldset className={styles.orderFieldset}>
          <legend className={styles.orderLegend}>{t('customerLegend')}</legend>
          <CustomerFields value={customer.value} onChange={customer.onChange} errors={customer.errors} onBlur={customer.onBlur} idPrefix={ID} />
          <TextAreaField
            id={`${ID}-notes`}
            name="notes"
            label={t('notesLabel')}
            hint={t('notesHint')}
            optionalText={t('optional')}
            value={notes}
            maxLength={2000}
            rows={4}
            error={notesTooLong ? t('errors.tooLong', { max: 2000 }) : null}
            onChange={(e) => setNotes(e.target.value)}
          />
          <ShowcaseConsent checked={showcase} onChange={setShowcase} id={`${ID}-showcase`} />
        </fieldset>

        <div className={styles.checkout}>
          <OrderCheckout
            kind="reproduction"
            size={size}
            price={price}
            cents={cents}
            total={{ label: t('priceLabel'), note: t('priceNote'), testId: 'order-price' }}
            submitLabel={t('submit', { price, mode: paymentMode })}
            error={formError ? { id: `${ID}-summary`, message: formError } : null}
            paymentMode={paymentMode}
            buttonRef={orderButton}
            busy={isPending}
            addToBasket={
              <AddToBasket
                item={() => ({
                  kind: 'reproduction',
                  artworkSlug: slug,
                  size,
                  frame,
                  orientation,
                  fit,
                  showcaseConsent: showcase,
                  ...(notes.trim() ? { notes: notes.trim() } : {}),
                })}
              />
            }
          />
        </div>
      </form>
      <OrderBar
        formId={`${ID}-form`}
        choices={choices}
        checkout={orderButton}
        price={price}
        summary={`${formatSize(canvas.widthCm, canvas.heightCm, locale)} · ${t(`frames.${frame}.name`)}`}
        busy={isPending}
      />
    </div>
  );
}
