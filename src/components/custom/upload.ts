import { acceptedPhotoTypes, MAX_UPLOAD_BYTES, type PhotoType } from '@/shared/uploads';

/**
 * The photo rules of `POST /v1/uploads` (src/server/uploads), checked in the browser before a
 * single byte is sent: the server would refuse the same files, but only after the shopper waited.
 */
export { MAX_UPLOAD_BYTES };

/** What the file picker offers: the accepted types, plus HEIC/HEIF by name (some systems label them with no type). */
export const photoAccept = [...acceptedPhotoTypes, '.heic', '.heif'].join(',');

/**
 * The Content-Type to send a file with, or null when it is not a photo we take. Browsers on
 * Windows and Linux often give HEIC files no type at all, so the extension decides for those.
 */
export function photoTypeOf(file: { name: string; type: string }): PhotoType | null {
  const type = file.type.toLowerCase();
  if ((acceptedPhotoTypes as readonly string[]).includes(type)) return type as PhotoType;
  const extension = file.name.toLowerCase().split('.').pop();
  if (type === '' || type === 'application/octet-stream') {
    if (extension === 'heic') return 'image/heic';
    if (extension === 'heif') return 'image/heif';
  }
  return null;
}

export type PhotoProblem = 'wrongType' | 'tooLarge';

/** Why a chosen file cannot be sent, or null when it may be. */
export function photoProblem(file: { name: string; type: string; size: number }): PhotoProblem | null {
  if (!photoTypeOf(file)) return 'wrongType';
  if (file.size > MAX_UPLOAD_BYTES) return 'tooLarge';
  return null;
}

/** How an upload ended badly, in the words the form has messages for. */
export type UploadFailure = 'wrongType' | 'tooLarge' | 'rateLimited' | 'failed';

export interface UploadedPhoto {
  uploadId: string;
  contentType: string;
  size: number;
  /** Pixels after EXIF rotation, as the server measured them; null when it could not (HEIC). */
  width: number | null;
  height: number | null;
}

export class UploadError extends Error {
  constructor(readonly failure: UploadFailure) {
    super(failure);
  }
}

/** The server's answer status → what to tell the shopper (docs/decisions.md, "Uploads"). */
function failureOf(status: number): UploadFailure {
  if (status === 413) return 'tooLarge';
  if (status === 415) return 'wrongType';
  if (status === 429) return 'rateLimited';
  return 'failed';
}

/**
 * Sends the photo's raw bytes to `POST /v1/uploads`. XMLHttpRequest rather than fetch because only
 * it reports upload progress, which a 20 MB photo on a phone connection needs.
 */
export function uploadPhoto(file: File, contentType: PhotoType, onProgress: (fraction: number) => void): { done: Promise<UploadedPhoto>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<UploadedPhoto>((resolve, reject) => {
    xhr.open('POST', '/v1/uploads');
    xhr.setRequestHeader('content-type', contentType);
    xhr.responseType = 'json';
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      const body: unknown = xhr.response;
      if (xhr.status === 201 && isUploaded(body)) {
        onProgress(1);
        resolve(body);
      } else reject(new UploadError(failureOf(xhr.status)));
    });
    xhr.addEventListener('error', () => reject(new UploadError('failed')));
    xhr.addEventListener('abort', () => reject(new UploadError('failed')));
    xhr.send(file);
  });
  return { done, abort: () => xhr.abort() };
}

function isUploaded(body: unknown): body is UploadedPhoto {
  return typeof body === 'object' && body !== null && typeof (body as { uploadId?: unknown }).uploadId === 'string';
}
