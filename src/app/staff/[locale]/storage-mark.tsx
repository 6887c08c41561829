import { getTranslations } from 'next-intl/server';
import type { Locale } from '@/shared/locales';
import { numberFormat } from '@/lib/format';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { quotaBytes, storageUse, type StorageUse } from '@/server/uploads/quota';
import styles from './staff.module.css';

/** The mark's sentences (messages `Staff.board.storage`), given what is held and the quota. */
export type StorageSentence = (key: 'full' | 'near', values: { held: string; quota: string }) => string;

/** MiB, as UPLOAD_QUOTA_MB counts them, written the staff member's way ("5,210 MB", "5.210 MB"). */
const megabytes = (bytes: number, locale: Locale) => numberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 0 }).format(bytes / 1024 / 1024);

/** The mark's sentence for a storage use, or null while there is room. */
export function storageMarkLine(use: StorageUse, locale: Locale, sentence: StorageSentence): { level: 'full' | 'near'; text: string } | null {
  if (!use.full && !use.near) return null;
  const level = use.full ? 'full' : 'near';
  return { level, text: sentence(level, { held: megabytes(use.heldBytes, locale), quota: megabytes(use.quotaBytes, locale) }) };
}

/**
 * A line on the orders board while the photo storage customers fill (src/server/uploads/quota.ts)
 * is past UPLOAD_QUOTA_MB, when their uploads are refused (503 storage_full), or at 9/10 of it.
 * Nothing otherwise.
 */
export async function StorageMark({ locale }: { locale: Locale }) {
  const [use, t] = await Promise.all([storageUse(db(), quotaBytes(env().UPLOAD_QUOTA_MB)), getTranslations({ locale, namespace: 'Staff.board.storage' })]);
  const line = storageMarkLine(use, locale, (key, values) => t(key, values));
  if (!line) return null;
  return (
    <p role="status" className={line.level === 'full' ? styles.error : `${styles.notice} ${styles.storageNear}`} data-testid="storage-mark" data-storage={line.level}>
      {line.text}
    </p>
  );
}
