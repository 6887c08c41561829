/**
 * What a customer's photo may be (decisions.md "Custom orders and uploads"): the upload form checks it before
 * sending, the server refuses anything else.
 */

/** 20 MB means 20 × 1024 × 1024 bytes: exactly that is accepted, one byte more is 413. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** The Content-Type values a photo may be sent with; its leading bytes must agree. */
export const acceptedPhotoTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const;
export type PhotoType = (typeof acceptedPhotoTypes)[number];

/** An upload no order uses is deleted after this many hours (the retention job); a basket says when. */
export const UNUSED_UPLOAD_HOURS = 24;
