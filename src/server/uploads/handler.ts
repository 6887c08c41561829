import 'server-only';
import path from 'node:path';
import { createSchema } from 'zod-openapi';
import type { RequestHandlerRoute } from '@/server/api/route-types';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { photoStorage, uploadsFolder } from '@/server/integrations/storage';
import { acceptedPhotoTypes, MAX_UPLOAD_BYTES } from '@/shared/uploads';
import { UploadCreated } from './schema';
import { quotaBytes, STORAGE_FULL_RETRY_AFTER_SECONDS } from './quota';
import { readPhoto, receivePhoto, type UploadDeps } from './service';

/** The configured storage, with spool files kept in the private uploads folder. */
export function configuredUploadDeps(): UploadDeps {
  return { storage: photoStorage(), spoolDir: path.join(uploadsFolder(env()), '.incoming') };
}

const binary = { type: 'string', format: 'binary' };

/**
 * `POST /v1/uploads`: the raw photo bytes as the body (not JSON, not multipart). A customer's
 * upload, so it is bound by the storage quota (UPLOAD_QUOTA_MB, quota.ts); studio photos are not.
 */
export function uploadRoute(deps: () => UploadDeps = configuredUploadDeps): RequestHandlerRoute {
  return {
    method: 'POST',
    path: '/uploads',
    rateLimit: 'photoUpload',
    async handle(request, _params, context) {
      const created = await receivePhoto(
        context?.db ?? db(),
        { quotaBytes: quotaBytes(env().UPLOAD_QUOTA_MB), ...deps() },
        {
          contentType: request.headers.get('content-type'),
          contentLength: request.headers.get('content-length'),
          body: request.body,
        },
      );
      return Response.json(created, { status: 201 });
    },
    openapi: {
      operationId: 'uploads-create',
      summary: 'Upload a customer photo for a custom order',
      description:
        `The body is the photo's raw bytes (at most ${MAX_UPLOAD_BYTES} bytes, 20 MB); Content-Type names its type and must agree ` +
        'with its leading bytes (HEIC and HEIF labels are interchangeable). The photo is stored privately; only staff can read it.',
      tags: ['uploads'],
      requestBody: { required: true, content: Object.fromEntries(acceptedPhotoTypes.map((type) => [type, { schema: binary }])) },
      responses: {
        '201': {
          description: 'The photo was stored',
          content: { 'application/json': { schema: createSchema(UploadCreated, { io: 'output', openapiVersion: '3.1.0' }).schema } },
        },
        '400': { description: 'Empty body' },
        '413': { description: 'Larger than 20 MB' },
        '415': { description: 'Not a JPEG, PNG, WebP or HEIC/HEIF image, or not the type its Content-Type names' },
        '503': {
          description:
            "The shop's photo storage is full (storage_full): the uploads no order uses and the photos of unpaid orders, with this one, would pass its quota. " +
            `Nothing was stored and no upload allowance was used; try again after Retry-After (${STORAGE_FULL_RETRY_AFTER_SECONDS} s: room comes back as unused uploads expire and unpaid orders are paid)`,
        },
      },
    },
  };
}

/** `GET /v1/admin/uploads/{id}`: the only way to read a customer photo. */
export function adminPhotoRoute(deps: () => UploadDeps = configuredUploadDeps): RequestHandlerRoute {
  return {
    method: 'GET',
    path: '/admin/uploads/{id}',
    staff: true,
    async handle(_request, params) {
      const photo = await readPhoto(db(), deps().storage, params.id ?? '');
      return new Response(photo.body, {
        status: 200,
        headers: {
          'content-type': photo.contentType,
          'content-length': String(photo.size),
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
          'content-disposition': `inline; filename="${params.id}"`,
        },
      });
    },
    openapi: {
      operationId: 'admin-uploads-read',
      summary: 'Read a customer photo (staff)',
      description: 'The bytes exactly as the customer sent them, with their type; private, never cached (Cache-Control private, no-store) and never run as a page (nosniff).',
      tags: ['staff'],
      parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string', format: 'uuid' } }],
      responses: {
        '200': { description: 'The photo as uploaded', content: Object.fromEntries(acceptedPhotoTypes.map((type) => [type, { schema: binary }])) },
        '400': { description: 'The id is not a UUID' },
        '401': { description: 'Missing or wrong staff token' },
        '404': { description: 'No photo has this id' },
      },
    },
  };
}
