import { z } from 'zod';

/** 20 MB means 20 × 1024 × 1024 bytes: exactly that is accepted, one byte more is 413. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** The Content-Type values a photo may be sent with; its leading bytes must agree. */
export const acceptedPhotoTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const;
export type PhotoType = (typeof acceptedPhotoTypes)[number];

export const UploadCreated = z.object({
  uploadId: z.uuid().describe('Use it as `uploadId` in a custom order'),
  contentType: z.enum(acceptedPhotoTypes),
  size: z.int().describe('Bytes stored'),
  width: z.int().nullable().describe('Pixels, after the EXIF rotation; null when the format cannot be measured'),
  height: z.int().nullable().describe('Pixels, after the EXIF rotation; null when the format cannot be measured'),
});
export type UploadCreated = z.output<typeof UploadCreated>;

export const UploadId = z.uuid();
