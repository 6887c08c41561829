import 'server-only';
import { z } from 'zod';
import { acceptedPhotoTypes } from '@/shared/uploads';

export const UploadCreated = z.object({
  uploadId: z.uuid().describe('Use it as `uploadId` in a custom order'),
  contentType: z.enum(acceptedPhotoTypes),
  size: z.int().describe('Bytes stored'),
  width: z.int().nullable().describe('Pixels, after the EXIF rotation; null when the format cannot be measured'),
  height: z.int().nullable().describe('Pixels, after the EXIF rotation; null when the format cannot be measured'),
});
export type UploadCreated = z.output<typeof UploadCreated>;

export const UploadId = z.uuid();
