'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import {
  canvasCm,
  CustomerFields,
  customerFieldId,
  customerFieldOf,
  OrderBar,
  ShowcaseConsent,
  SizeFramePicker,
  useCustomerForm,
  usePrice,
  useSubmitOrder,
  type CustomerField,
  type CustomerProblems,
  type PriceTableData,
} from '@/components/order';
import { AddToBasket } from '@/components/basket/add-to-basket';
import { thumbnailOf } from '@/components/basket/thumbnail';
import { FormError, OrderCheckout } from '@/components/order/checkout';
import { TextAreaField } from '@/components/ui/field';
import { WallPreview } from '@/components/wall-preview';
import { formatSize, formatUsd } from '@/lib/format';
import { orientationOf, type Frame, type Size } from '@/shared/canvas';
import type { PaymentMode } from '@/shared/payment';
import type { Style } from '@/shared/orders';
import type { Locale } from '@/shared/locales';
import { PhotoUpload, type ChosenPhoto } from './photo-upload';
import { StylePicker, styleExample } from './style-picker';
import { minSubjects, SubjectsPicker } from './subjects-picker';
import css from './custom.module.css';

const NOTES_MAX = 2000;
const ID = 'custom';

/**
 * The custom painting order: photo, style, subjects, size and frame, the shopper's details and
 * notes, with the live price and the painting hung on a wall at true scale. The body sent is the
 * server's `CreateCustomOrder`; the server prices it again and is the one that counts.
 */
const noSubscription = () => () => {};
const ideaInAddress = () => new URLSearchParams(window.location.search).get('idea')?.trim().slice(0, 100) || null;

export function CustomOrderForm({ initialPrices, paymentMode }: { initialPrices?: PriceTableData; paymentMode: PaymentMode }) {
  const t = useTranslations('Custom');
  const locale = useLocale() as Locale;
  const [photo, setPhoto] = useState<ChosenPhoto | null>(null);
  const [photoMissing, setPhotoMissing] = useState(false);
  const [photoRefused, setPhotoRefused] = useState(false);
  const [style, setStyle] = useState<Style>('classic');
  const [subjects, setSubjects] = useState(minSubjects);
  const [size, setSize] = useState<Size>('50x70');
  const [frame, setFrame] = useState<Frame>('stretched');
  // A search that found nothing offers a custom painting with its words (`?idea=`, SearchWayOn):
  // they start the notes until the shopper types. Read in the browser only, so the cached page
  // stays one page for everyone.
  const idea = useSyncExternalStore(noSubscription, ideaInAddress, () => null);
  const [typedNotes, setNotes] = useState<string | null>(null);
  const notes = typedNotes ?? (idea ? t('notes.fromSearch', { q: idea }) : '');
  const [failed, setFailed] = useState<false | 'failed' | 'rateLimited'>(false);
  const customer = useCustomerForm();
  const { submit, isPending } = useSubmitOrder();
  const { cents, table } = usePrice({ kind: 'custom', size, frame, subjects }, initialPrices);
  const photoSection = useRef<HTMLElement>(null);
  const orderButton = useRef<HTMLButtonElement>(null);

  const onPhoto = useCallback((next: ChosenPhoto | null) => {
    setPhoto(next);
    if (next) {
      setPhotoMissing(false);
      setPhotoRefused(false);
    }
  }, []);

  // The painting follows the photo's orientation: a landscape photo is painted landscape, and the
  // order says so, so the studio paints the canvas the way this form shows it.
  const ratio = photo?.ratio ?? null;
  const orientation = orientationOf(ratio, 1);
  const canvas = canvasCm(size, orientation);
  const [showcase, setShowcase] = useState(false);
  const notesError = notes.length > NOTES_MAX ? t('errors.notesTooLong', { max: NOTES_MAX }) : null;

  const focusFirstCustomerProblem = (problems: CustomerProblems) => {
    const first = (Object.keys(problems) as CustomerField[])[0];
    if (first) document.getElementById(customerFieldId(ID, first))?.focus();
  };

  /** Without a photo there is nothing to paint: the photo step says so, as the order button does. */
  const askForPhoto = () => {
    setPhotoMissing(true);
    photoSection.current?.scrollIntoView({ block: 'start' });
    photoSection.current?.querySelector<HTMLInputElement>('input[type=file]')?.focus({ preventScroll: true });
  };

  const basketItem = () => {
    if (!photo) {
      askForPhoto();
      return null;
    }
    const trimmedNotes = notes.trim();
    return {
      kind: 'custom' as const,
      uploadId: photo.uploadId,
      style,
      subjects,
      size,
      frame,
      orientation,
      showcaseConsent: showcase,
      ...(trimmedNotes ? { notes: trimmedNotes } : {}),
    };
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailed(false);
    const checked = customer.validate();
    if (!photo) return askForPhoto();
    if (!checked.customer) return focusFirstCustomerProblem(checked.problems);
    if (notesError) return document.getElementById(`${ID}-notes`)?.focus();

    const trimmedNotes = notes.trim();
    const outcome = await submit({
      kind: 'custom',
      uploadId: photo.uploadId,
      style,
      subjects,
      size,
      frame,
      orientation,
      showcaseConsent: showcase,
      locale,
      customer: checked.customer,
      ...(trimmedNotes ? { notes: trimmedNotes } : {}),
    });
    if (outcome.ok) return;
    if (outcome.kind === 'failed' || outcome.kind === 'rateLimited') return setFailed(outcome.kind);
    // The server refused a field: the photo (unknown or already used) or a customer field.
    if (outcome.problems.some((p) => p.path === 'uploadId')) {
      setPhoto(null);
      setPhotoRefused(true);
      photoSection.current?.scrollIntoView({ block: 'start' });
      return;
    }
    const serverProblems: CustomerProblems = {};
    for (const problem of outcome.problems) {
      const field = customerFieldOf(problem.path);
      if (field) serverProblems[field] = { key: 'invalid' };
    }
    if (Object.keys(serverProblems).length) {
      customer.setErrors(serverProblems);
      focusFirstCustomerProblem(serverProblems);
    } else setFailed('failed');
  };

  const wallImage = photo?.previewUrl ?? styleExample(style);
  const wallAlt = photo?.previewUrl ? t('summary.wallAltPhoto') : t('summary.wallAltExample', { style: t(`style.names.${style}`) });
  const price = cents != null ? formatUsd(cents, locale) : '—';

  return (
    <form id={`${ID}-form`} className={css.layout} onSubmit={onSubmit} noValidate aria-describedby={failed ? `${ID}-failed` : undefined}>
      <div className={css.steps}>
        <section className={css.step} ref={photoSection} aria-labelledby={`${ID}-photo-title`}>
          <h2 className={css.stepTitle} id={`${ID}-photo-title`}>
            <span className={css.stepNumber} aria-hidden="true">
              1
            </span>
            {t('steps.photo')}
          </h2>
          <p className={css.stepLead}>{t('photo.lead')}</p>
          <PhotoUpload onChange={onPhoto} missing={photoMissing} />
          {photoRefused ? <FormError>{t('errors.photoUsed')}</FormError> : null}
        </section>

        <section className={css.step} aria-labelledby={`${ID}-style-title`}>
          <h2 className={css.stepTitle} id={`${ID}-style-title`}>
            <span className={css.stepNumber} aria-hidden="true">
              2
            </span>
            {t('steps.style')}
          </h2>
          <StylePicker value={style} onChange={setStyle} />
          <SubjectsPicker value={subjects} onChange={setSubjects} extraSubjectCents={table?.custom.extraSubjectCents ?? null} />
        </section>

        <section className={css.step} aria-labelledby={`${ID}-size-title`}>
          <h2 className={css.stepTitle} id={`${ID}-size-title`}>
            <span className={css.stepNumber} aria-hidden="true">
              3
            </span>
            {t('steps.sizeFrame')}
          </h2>
          <SizeFramePicker
            size={size}
            frame={frame}
            onChange={(s, f) => {
              setSize(s);
              setFrame(f);
            }}
            kind="custom"
            subjects={subjects}
            ratio={ratio}
            initialPrices={initialPrices}
            idPrefix={ID}
          />
          {/* True scale on a wall, with the shopper's photo once it is chosen (the example of the style until then). */}
          <WallPreview widthCm={canvas.widthCm} heightCm={canvas.heightCm} frame={frame} imageSrc={wallImage} alt={wallAlt} />
        </section>

        <section className={css.step} aria-labelledby={`${ID}-details-title`}>
          <h2 className={css.stepTitle} id={`${ID}-details-title`}>
            <span className={css.stepNumber} aria-hidden="true">
              4
            </span>
            {t('steps.details')}
          </h2>
          <CustomerFields value={customer.value} onChange={customer.onChange} onBlur={customer.onBlur} errors={customer.errors} idPrefix={ID} />
          <TextAreaField
            id={`${ID}-notes`}
            label={t('notes.label')}
            hint={t('notes.hint', { max: NOTES_MAX })}
            optionalText={t('optional')}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            error={notesError}
            rows={4}
          />
          <ShowcaseConsent checked={showcase} onChange={setShowcase} id={`${ID}-showcase`} />
        </section>
      </div>

      <aside className={css.summary} aria-labelledby={`${ID}-summary-title`}>
        <div className={css.summaryInner}>
          <h2 className={css.summaryTitle} id={`${ID}-summary-title`}>
            {t('summary.title')}
          </h2>
          <div className={css.summaryPicture}>
            {/* eslint-disable-next-line @next/next/no-img-element -- the shopper's own photo (object URL) or a static example. */}
            <img src={wallImage} alt="" />
          </div>
          <dl className={css.facts}>
            <div>
              <dt>{t('summary.style')}</dt>
              <dd>{t(`style.names.${style}`)}</dd>
            </div>
            <div>
              <dt>{t('summary.subjects')}</dt>
              <dd>{t('subjects.count', { count: subjects })}</dd>
            </div>
            <div>
              <dt>{t('summary.size')}</dt>
              <dd>{formatSize(canvas.widthCm, canvas.heightCm, locale)}</dd>
            </div>
            <div>
              <dt>{t('summary.frame')}</dt>
              <dd>{t(`summary.frames.${frame}`)}</dd>
            </div>
            <div>
              <dt>{t('summary.photo')}</dt>
              <dd>{photo ? t('summary.photoReady') : t('summary.photoMissing')}</dd>
            </div>
          </dl>
          <OrderCheckout
            kind="custom"
            size={size}
            price={price}
            cents={cents}
            total={{ label: t('summary.total'), note: t('summary.totalNote'), testId: 'custom-total' }}
            submitLabel={t('submit', { mode: paymentMode })}
            error={failed ? { id: `${ID}-failed`, message: t(`errors.${failed}`) } : null}
            paymentMode={paymentMode}
            buttonRef={orderButton}
            busy={isPending}
            addToBasket={
              <AddToBasket item={basketItem} photo={photo ? async () => ({ uploadedAt: photo.uploadedAt, thumbnail: await thumbnailOf(photo.previewUrl) }) : undefined} />
            }
          />
        </div>
      </aside>
      <OrderBar
        formId={`${ID}-form`}
        choices={photoSection}
        choicesComplete={Boolean(photo)}
        checkout={orderButton}
        price={price}
        summary={`${formatSize(canvas.widthCm, canvas.heightCm, locale)} · ${t(`summary.frames.${frame}`)}`}
        busy={isPending}
      />
    </form>
  );
}
