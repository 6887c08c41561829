'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { photoAccept, photoProblem, photoTypeOf } from '@/components/custom/upload';
import { studioPhotoKindsAt, type OrderKind, type OrderStatus, type StudioPhotoKind } from '@/shared/orders';
import styles from '../../staff.module.css';

type Outcome = { kind: 'saved' | 'error'; text: string } | null;

/** The kind a photo most likely is at this step, so the usual case needs no choice. */
function likelyKind(kind: OrderKind, status: OrderStatus): StudioPhotoKind {
  if (kind === 'custom' && status === 'sketching') return 'sketch';
  if (status === 'drying' || status === 'shipped' || status === 'delivered') return 'finished';
  return 'progress';
}

/**
 * Adds a sketch, progress or finished photo to the order's timeline: dropped on the zone or
 * chosen, sent raw with its progress shown (XMLHttpRequest reports upload progress, fetch does
 * not) to the dashboard's door of `POST /v1/admin/orders/{code}/photos`, then the page is read again.
 */
export function PhotoDrop({ code, kind: orderKind, status }: { code: string; kind: OrderKind; status: OrderStatus }) {
  const t = useTranslations('Staff.order.photos');
  const router = useRouter();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const kinds = studioPhotoKindsAt(orderKind, status);
  const [kind, setKind] = useState<StudioPhotoKind>(() => likelyKind(orderKind, status));
  // The order moved on (the page was read again): what it most likely is now changes with it
  // (adjusted while rendering, as React advises for state that follows a prop).
  const [moment, setMoment] = useState(`${orderKind}:${status}`);
  if (moment !== `${orderKind}:${status}`) {
    setMoment(`${orderKind}:${status}`);
    setKind(likelyKind(orderKind, status));
  }
  const [note, setNote] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const choose = (chosen: File | undefined) => {
    setOutcome(null);
    if (!chosen) return;
    const problem = photoProblem(chosen);
    if (problem) {
      setFile(null);
      return setOutcome({ kind: 'error', text: t(`errors.${problem}`) });
    }
    setFile(chosen);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setOutcome({ kind: 'error', text: t('errors.noFile') });
    const query = new URLSearchParams({ kind, ...(note.trim() ? { note: note.trim() } : {}) });
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/staff/api/orders/${encodeURIComponent(code)}/photos?${query}`);
    xhr.setRequestHeader('content-type', photoTypeOf(file) ?? file.type);
    xhr.upload.addEventListener('progress', (e) => e.lengthComputable && setProgress(e.loaded / e.total));
    xhr.addEventListener('load', () => {
      setProgress(null);
      if (xhr.status === 201) {
        setOutcome({ kind: 'saved', text: t(kind === 'sketch' ? 'savedSketch' : 'saved') });
        setFile(null);
        setNote('');
        if (input.current) input.current.value = '';
        router.refresh();
      } else {
        const text =
          xhr.status === 401
            ? 'signedOut'
            : xhr.status === 413
              ? 'tooLarge'
              : xhr.status === 415
                ? 'wrongType'
                : xhr.status === 400
                  ? 'invalid'
                  : xhr.status === 409
                    ? 'movedOn'
                    : 'failed';
        setOutcome({ kind: 'error', text: t(`errors.${text}`) });
        // The order moved on since the page was read: show it as it is now, with the kinds it takes.
        if (xhr.status === 409) router.refresh();
      }
    });
    xhr.addEventListener('error', () => {
      setProgress(null);
      setOutcome({ kind: 'error', text: t('errors.failed') });
    });
    setOutcome(null);
    setProgress(0);
    xhr.send(file);
  };

  const busy = progress !== null;
  return (
    <form onSubmit={send} className={styles.form} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className={styles.subhead}>
        {t('addTitle')}
      </h3>
      <label
        htmlFor={`${id}-file`}
        className={styles.dropZone}
        data-dragging={dragging || undefined}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="photo-drop"
      >
        <span>{file ? t('chosen', { name: file.name }) : t('drop')}</span>
        <input ref={input} id={`${id}-file`} type="file" accept={photoAccept} onChange={(e) => choose(e.target.files?.[0])} className={styles.visuallyHidden} disabled={busy} />
      </label>
      <div className={styles.field}>
        <label htmlFor={`${id}-kind`}>{t('kind')}</label>
        <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as StudioPhotoKind)} disabled={busy}>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {t(`kinds.${k}`)}
            </option>
          ))}
        </select>
        {kind === 'sketch' ? <p className={styles.hint}>{t('sketchHint')}</p> : null}
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-note`}>{t('note')}</label>
        <textarea id={`${id}-note`} value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} rows={2} disabled={busy} />
      </div>
      {busy ? <progress max={1} value={progress ?? 0} className={styles.progress} aria-label={t('sending')} /> : null}
      <button type="submit" className={styles.primaryButton} disabled={busy || !file}>
        {busy ? t('sending') : t('send')}
      </button>
      <p role="status" className={outcome ? (outcome.kind === 'error' ? styles.error : styles.notice) : undefined} data-testid="photo-outcome">
        {outcome?.text}
      </p>
    </form>
  );
}
