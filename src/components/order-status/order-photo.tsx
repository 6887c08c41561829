'use client';

import { useRef } from 'react';
import type { OrderPhotoView } from '@/shared/order-schema';
import css from './order-status.module.css';

/**
 * A photo of the order (the customer's own, a sketch, progress, the finished painting): a
 * thumbnail that opens the photo at full size in a dialog, closed by its button, Escape or a
 * click beside it. The address is the signed one of the lookup, private to this order.
 */
export function OrderPhoto({
  photo,
  alt,
  openLabel,
  closeLabel,
  size = 'thumb',
}: {
  photo: OrderPhotoView;
  alt: string;
  openLabel: string;
  closeLabel: string;
  size?: 'thumb' | 'large';
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className={css.photoButton} data-size={size} onClick={() => dialog.current?.showModal()} aria-label={openLabel} data-photo-kind={photo.kind}>
        {/* eslint-disable-next-line @next/next/no-img-element -- a private photo at a signed, expiring address; next/image would cache it publicly */}
        <img src={photo.url} alt={alt} loading="lazy" decoding="async" />
      </button>
      <dialog ref={dialog} className={css.photoDialog} onClick={(event) => event.target === dialog.current && dialog.current?.close()} aria-label={alt}>
        {/* eslint-disable-next-line @next/next/no-img-element -- as above */}
        <img src={photo.url} alt={alt} />
        <button type="button" className={css.photoClose} onClick={() => dialog.current?.close()}>
          {closeLabel}
        </button>
      </dialog>
    </>
  );
}
