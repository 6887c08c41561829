'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { Button } from '@/components/ui/button';
import { formatMegabytes } from './format';
import { MAX_UPLOAD_BYTES, photoAccept, photoProblem, photoTypeOf, uploadPhoto, UploadError, type UploadFailure } from './upload';
import styles from './custom.module.css';

/** The photo as the rest of the form needs it: the id for the order, the preview for the wall. */
export interface ChosenPhoto {
  uploadId: string;
  /** An object URL of the file in this browser; null when the browser cannot draw it (HEIC). */
  previewUrl: string | null;
  /**
   * Width / height of the photo, so the painting takes its orientation: as the server measured it
   * (after EXIF rotation, what the order will keep), else as the browser drew it (HEIC).
   */
  ratio: number | null;
  /** When the server took it (ISO): an unused photo is kept 24 hours, which a basket says. */
  uploadedAt: string;
}

type State =
  | { step: 'empty' }
  | { step: 'refused'; problem: UploadFailure; fileName: string; size: number }
  | { step: 'uploading'; file: File; previewUrl: string; progress: number }
  | { step: 'failed'; file: File; previewUrl: string; problem: UploadFailure }
  | { step: 'done'; file: File; previewUrl: string; uploadId: string; measured: number | null; uploadedAt: string };

interface Props {
  onChange: (photo: ChosenPhoto | null) => void;
  /** Set by the form when the shopper tried to order without a photo. */
  missing?: boolean;
}

/**
 * Photo upload with preview and progress. The file is checked here first (type and the 20 MB
 * limit, the server's own rules), then sent raw to `POST /v1/uploads`; the preview is an object
 * URL, so the photo is shown at once without a round trip.
 */
export function PhotoUpload({ onChange, missing = false }: Props) {
  const t = useTranslations('Custom.photo');
  const locale = useLocale();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ step: 'empty' });
  const [previewBroken, setPreviewBroken] = useState(false);
  const [ratio, setRatio] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const abortRef = useRef<(() => void) | null>(null);
  const previewRef = useRef<string | null>(null);
  // The latest callback, so a parent that passes a new function each render causes no extra work.
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // Object URLs hold the file in memory until revoked: one at a time, and none after leaving.
  const previewOf = (file: File) => {
    if (previewRef.current) URL.revokeObjectURL(previewRef.current);
    previewRef.current = URL.createObjectURL(file);
    setPreviewBroken(false);
    setRatio(null);
    return previewRef.current;
  };
  useEffect(
    () => () => {
      abortRef.current?.();
      if (previewRef.current) URL.revokeObjectURL(previewRef.current);
    },
    [],
  );

  const send = useCallback((file: File, previewUrl: string) => {
    const type = photoTypeOf(file);
    if (!type) return;
    setState({ step: 'uploading', file, previewUrl, progress: 0 });
    onChangeRef.current(null);
    const upload = uploadPhoto(file, type, (progress) => setState((current) => (current.step === 'uploading' && current.file === file ? { ...current, progress } : current)));
    abortRef.current = upload.abort;
    upload.done.then(
      (uploaded) => {
        abortRef.current = null;
        setState((current) =>
          current.step === 'uploading' && current.file === file
            ? {
                step: 'done',
                file,
                previewUrl,
                uploadId: uploaded.uploadId,
                measured: uploaded.width && uploaded.height ? uploaded.width / uploaded.height : null,
                uploadedAt: new Date().toISOString(),
              }
            : current,
        );
      },
      (error: unknown) => {
        abortRef.current = null;
        const problem = error instanceof UploadError ? error.failure : 'failed';
        setState((current) => (current.step === 'uploading' && current.file === file ? { step: 'failed', file, previewUrl, problem } : current));
      },
    );
  }, []);

  // The parent hears of a photo only once the server has it (an uploadId to order with).
  useEffect(() => {
    if (state.step === 'done')
      onChangeRef.current({ uploadId: state.uploadId, previewUrl: previewBroken ? null : state.previewUrl, ratio: state.measured ?? ratio, uploadedAt: state.uploadedAt });
  }, [state, previewBroken, ratio]);

  const choose = (file: File | undefined) => {
    if (!file) return;
    abortRef.current?.();
    const problem = photoProblem(file);
    if (problem) {
      setState({ step: 'refused', problem, fileName: file.name, size: file.size });
      onChangeRef.current(null);
      return;
    }
    send(file, previewOf(file));
  };

  // A file picked before the page finished loading fired its `change` before React listened: take it now.
  useEffect(() => {
    const early = inputRef.current?.files?.[0];
    if (early) choose(early);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount
  }, []);

  const onInput = (event: ChangeEvent<HTMLInputElement>) => {
    choose(event.target.files?.[0]);
    // Choosing the same file again after an error must fire `change` again.
    event.target.value = '';
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const hasPreview = state.step === 'uploading' || state.step === 'failed' || state.step === 'done';
  const problem = state.step === 'refused' || state.step === 'failed' ? state.problem : null;
  const errorText = problem
    ? problem === 'tooLarge'
      ? t('errors.tooLarge', {
          size: formatMegabytes(state.step === 'refused' ? state.size : state.step === 'failed' ? state.file.size : 0, locale),
          max: formatMegabytes(MAX_UPLOAD_BYTES, locale),
        })
      : t(`errors.${problem}`)
    : missing && state.step === 'empty'
      ? t('errors.required')
      : null;
  const percent = state.step === 'uploading' ? Math.round(state.progress * 100) : state.step === 'done' ? 100 : 0;

  return (
    <div
      className={[styles.photo, dragging ? styles.photoDragging : '', errorText ? styles.photoInvalid : ''].filter(Boolean).join(' ')}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-state={state.step}
    >
      <div className={styles.photoPreview} style={hasPreview && ratio ? { aspectRatio: String(ratio) } : undefined}>
        {hasPreview && !previewBroken ? (
          // eslint-disable-next-line @next/next/no-img-element -- an object URL of the shopper's own file; nothing to optimise.
          <img
            src={state.previewUrl}
            alt={t('previewAlt')}
            onError={() => setPreviewBroken(true)}
            onLoad={(event) => {
              const { naturalWidth, naturalHeight } = event.currentTarget;
              if (naturalWidth > 0 && naturalHeight > 0) setRatio(naturalWidth / naturalHeight);
            }}
          />
        ) : (
          <span className={styles.photoPlaceholder} aria-hidden="true">
            <svg viewBox="0 0 48 40" fill="none" stroke="currentColor" strokeWidth="1.5">
              <rect x="1" y="1" width="46" height="38" />
              <path d="M1 31l13-12 10 9 7-6 16 13" />
              <circle cx="34" cy="12" r="4" />
            </svg>
          </span>
        )}
        {hasPreview && previewBroken ? <p className={styles.photoNoPreview}>{t('noPreview')}</p> : null}
      </div>

      <div className={styles.photoBody}>
        <input
          ref={inputRef}
          id={`${id}-file`}
          className={`visually-hidden ${styles.fileInput}`}
          type="file"
          accept={photoAccept}
          onChange={onInput}
          aria-describedby={[`${id}-hint`, errorText ? `${id}-error` : null, state.step === 'uploading' || state.step === 'done' ? `${id}-status` : null]
            .filter(Boolean)
            .join(' ')}
          aria-invalid={errorText ? true : undefined}
        />
        <label htmlFor={`${id}-file`} className={styles.fileButton}>
          {state.step === 'empty' || state.step === 'refused' ? t('choose') : t('replace')}
        </label>
        <p className={styles.photoHint} id={`${id}-hint`}>
          {t('hint', { max: formatMegabytes(MAX_UPLOAD_BYTES, locale) })}
        </p>

        {state.step === 'uploading' || state.step === 'done' ? (
          <div className={styles.progress} id={`${id}-status`}>
            <div className={styles.progressTrack} role="progressbar" aria-label={t('progressLabel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
              <span className={styles.progressBar} style={{ width: `${percent}%` }} />
            </div>
            <p className={styles.progressText} aria-live="polite">
              {state.step === 'done' ? <span className={styles.photoDone}>{t('uploaded', { name: state.file.name })}</span> : t('uploading', { percent: percent / 100 })}
            </p>
          </div>
        ) : null}

        {errorText ? (
          <div className={styles.photoError} id={`${id}-error`} role="alert">
            <p>{errorText}</p>
            {state.step === 'failed' && (problem === 'failed' || problem === 'rateLimited') ? (
              <Button variant="secondary" onClick={() => send(state.file, state.previewUrl)}>
                {t('retry')}
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
