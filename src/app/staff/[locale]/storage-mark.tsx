import type { Locale } from '@/shared/locales';
import { numberFormat } from '@/lib/format';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { quotaBytes, storageUse, type StorageUse } from '@/server/uploads/quota';
import styles from './staff.module.css';

/**
 * The sentences of the mark, in the dashboard's seven languages. They stand here rather than in
 * messages/ (Staff.board) because issue 38's other parts rewrite those files at the same time;
 * they belong there once that work has landed. A missing language is a type error, as it is there.
 */
const sentences: Record<Locale, { full: (held: string, quota: string) => string; near: (held: string, quota: string) => string }> = {
  en: {
    full: (held, quota) => `Customer uploads are refused: photo storage is full (${held} of ${quota}).`,
    near: (held, quota) => `Photo storage is nearly full (${held} of ${quota}); past it, customer uploads are refused.`,
  },
  de: {
    full: (held, quota) => `Uploads von Kunden werden abgelehnt: Der Fotospeicher ist voll (${held} von ${quota}).`,
    near: (held, quota) => `Der Fotospeicher ist fast voll (${held} von ${quota}); darüber hinaus werden Uploads von Kunden abgelehnt.`,
  },
  es: {
    full: (held, quota) => `Se rechazan las fotos de los clientes: el almacenamiento de fotos está lleno (${held} de ${quota}).`,
    near: (held, quota) => `El almacenamiento de fotos está casi lleno (${held} de ${quota}); al superarlo se rechazarán las fotos de los clientes.`,
  },
  fr: {
    full: (held, quota) => `Les photos des clients sont refusées : le stockage des photos est plein (${held} sur ${quota}).`,
    near: (held, quota) => `Le stockage des photos est presque plein (${held} sur ${quota}) ; au-delà, les photos des clients seront refusées.`,
  },
  it: {
    full: (held, quota) => `Le foto dei clienti vengono rifiutate: lo spazio per le foto è pieno (${held} su ${quota}).`,
    near: (held, quota) => `Lo spazio per le foto è quasi pieno (${held} su ${quota}); oltre, le foto dei clienti verranno rifiutate.`,
  },
  ja: {
    full: (held, quota) => `お客様の写真のアップロードを受け付けていません：写真の保存容量がいっぱいです（${quota}中${held}）。`,
    near: (held, quota) => `写真の保存容量がまもなくいっぱいです（${quota}中${held}）。超えるとお客様の写真のアップロードを受け付けません。`,
  },
  vi: {
    full: (held, quota) => `Ảnh của khách hàng đang bị từ chối: bộ nhớ ảnh đã đầy (${held} / ${quota}).`,
    near: (held, quota) => `Bộ nhớ ảnh sắp đầy (${held} / ${quota}); khi vượt quá, ảnh của khách hàng sẽ bị từ chối.`,
  },
};

/** MiB, as UPLOAD_QUOTA_MB counts them, written the staff member's way ("5,210 MB", "5.210 MB"). */
const megabytes = (bytes: number, locale: Locale) => numberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 0 }).format(bytes / 1024 / 1024);

/** The mark's sentence for a storage use, or null while there is room. */
export function storageMarkLine(use: StorageUse, locale: Locale): { level: 'full' | 'near'; text: string } | null {
  if (!use.full && !use.near) return null;
  const level = use.full ? 'full' : 'near';
  return { level, text: sentences[locale][level](megabytes(use.heldBytes, locale), megabytes(use.quotaBytes, locale)) };
}

/**
 * A line on the orders board while the photo storage customers fill (src/server/uploads/quota.ts)
 * is past UPLOAD_QUOTA_MB, when their uploads are refused (503 storage_full), or at 9/10 of it.
 * Nothing otherwise.
 */
export async function StorageMark({ locale }: { locale: Locale }) {
  const line = storageMarkLine(await storageUse(db(), quotaBytes(env().UPLOAD_QUOTA_MB)), locale);
  if (!line) return null;
  return (
    <p role="status" className={line.level === 'full' ? styles.error : `${styles.notice} ${styles.storageNear}`} data-testid="storage-mark" data-storage={line.level}>
      {line.text}
    </p>
  );
}
