import 'server-only';
import { z } from 'zod';
import { createSchema } from 'zod-openapi';
import type { RequestHandlerRoute } from '@/server/api/route-types';
import { db, type Db } from '@/server/db/client';
import { invalidInput } from '@/server/errors';
import { configuredUploadDeps } from '@/server/uploads/handler';
import type { UploadDeps } from '@/server/uploads/service';
import { OrderPhotoView } from '@/shared/order-schema';
import { studioPhotoKinds } from '@/shared/orders';
import { acceptedPhotoTypes, MAX_UPLOAD_BYTES } from '@/shared/uploads';
import { addStudioPhoto, configuredPhotoAddresses, readOrderPhoto, type PhotoAddresses } from './photos';

/** The query of a studio photo: what it shows and what the studio says with it. */
export const StudioPhotoQuery = z.object({
  kind: z.enum(studioPhotoKinds),
  note: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .transform((v) => v || undefined),
});

const binary = { type: 'string', format: 'binary' };
const imageContent = Object.fromEntries(acceptedPhotoTypes.map((type) => [type, { schema: binary }]));

/** Reads the query of a studio photo; a bad one is refused before a byte of the photo is read. */
export async function studioPhotoOf(request: Request, code: string) {
  const url = new URL(request.url);
  const parsed = StudioPhotoQuery.safeParse({ kind: url.searchParams.get('kind') ?? undefined, note: url.searchParams.get('note') ?? undefined });
  if (!parsed.success) {
    await request.body?.cancel().catch(() => undefined);
    const details = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message.replace(/^Invalid input: /, '') }));
    throw invalidInput(`Invalid input at ${details[0]!.path}: ${details[0]!.message}.`, details);
  }
  return { code, ...parsed.data };
}

/**
 * Adds a studio photo from a request whose body is the photo (shared by /v1 and the dashboard's own
 * door). Never bound by the storage quota: `deps` carry none (decisions.md "Storage").
 */
export async function receiveStudioPhoto(request: Request, code: string, deps: UploadDeps = configuredUploadDeps(), database: Db = db()): Promise<Response> {
  const photo = await studioPhotoOf(request, code);
  const view = await addStudioPhoto(database, deps, photo, {
    contentType: request.headers.get('content-type'),
    contentLength: request.headers.get('content-length'),
    body: request.body,
  });
  return Response.json(view, { status: 201 });
}

/** `POST /v1/admin/orders/{code}/photos?kind=&note=`: a sketch, progress or finished photo on the order's timeline. */
export function studioPhotoRoute(deps: () => UploadDeps = configuredUploadDeps): RequestHandlerRoute {
  return {
    method: 'POST',
    path: '/admin/orders/{code}/photos',
    staff: true,
    handle: (request, params, context) => receiveStudioPhoto(request, params.code ?? '', deps(), context?.db),
    openapi: {
      operationId: 'admin-orders-photos-create',
      summary: "Add a sketch, progress or finished photo to an order's timeline (staff)",
      description:
        `The body is the photo's raw bytes, with the upload rules (at most ${MAX_UPLOAD_BYTES} bytes; Content-Type agreeing with the leading bytes). ` +
        "It records an event in the order's current status with the note. A sketch, only on a custom order in sketching, asks the customer to " +
        'decide (sketchStatus pending) and e-mails them; progress and finished photos go on any order that is neither pending nor cancelled.',
      tags: ['staff'],
      parameters: [
        { in: 'path', name: 'code', required: true, schema: { type: 'string', maxLength: 20 } },
        { in: 'query', name: 'kind', required: true, schema: { type: 'string', enum: [...studioPhotoKinds] } },
        { in: 'query', name: 'note', required: false, schema: { type: 'string', maxLength: 2000 }, description: 'Shown to the customer with the photo' },
      ],
      requestBody: { required: true, content: imageContent },
      responses: {
        '201': {
          description: 'The photo is on the timeline',
          content: { 'application/json': { schema: createSchema(OrderPhotoView, { io: 'output', openapiVersion: '3.1.0' }).schema } },
        },
        '400': { description: 'Invalid kind or note, an empty body, or a sketch on a reproduction' },
        '401': { description: 'Missing or wrong staff token' },
        '404': { description: 'No order has this code' },
        '409': { description: 'A sketch on an order not in sketching, or any photo on a pending or cancelled order (invalid_transition)' },
        '413': { description: 'Larger than 20 MB' },
        '415': { description: 'Not a JPEG, PNG, WebP or HEIC/HEIF image, or not the type its Content-Type names' },
      },
    },
  };
}

/** `GET /v1/orders/{code}/photos/{id}?expires=&signature=`: a photo of the customer's order, by the address their lookup gave. */
export function orderPhotoRoute(deps: () => UploadDeps = configuredUploadDeps, addresses: () => PhotoAddresses = configuredPhotoAddresses): RequestHandlerRoute {
  return {
    method: 'GET',
    path: '/orders/{code}/photos/{id}',
    async handle(request, params) {
      const url = new URL(request.url);
      const photo = await readOrderPhoto(db(), deps().storage, addresses(), {
        code: params.code ?? '',
        id: params.id ?? '',
        expires: url.searchParams.get('expires'),
        signature: url.searchParams.get('signature'),
      });
      if (request.method === 'HEAD') await photo.body.cancel();
      // The browser may keep it while the address is good; no shared cache ever may.
      const maxAge = Math.max(0, photo.expires - Math.ceil(Date.now() / 1000));
      return new Response(request.method === 'HEAD' ? null : photo.body, {
        status: 200,
        headers: {
          'content-type': photo.contentType,
          'content-length': String(photo.size),
          'cache-control': `private, max-age=${maxAge}`,
          'x-content-type-options': 'nosniff',
        },
      });
    },
    openapi: {
      operationId: 'orders-photos-read',
      summary: "A photo of the customer's order, at the signed address the order lookup gives",
      description: 'The address expires one hour after the lookup; look the order up again for a fresh one.',
      tags: ['orders'],
      parameters: [
        { in: 'path', name: 'code', required: true, schema: { type: 'string' } },
        { in: 'path', name: 'id', required: true, schema: { type: 'string', format: 'uuid' } },
        { in: 'query', name: 'expires', required: true, schema: { type: 'string' } },
        { in: 'query', name: 'signature', required: true, schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'The photo', content: imageContent },
        '404': { description: 'A wrong, tampered, expired or foreign address, or a photo no longer kept' },
      },
    },
  };
}
