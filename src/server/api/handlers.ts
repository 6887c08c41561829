import 'server-only';
import { stripeWebhookRoute } from '@/server/payments/handler';
import { orderPhotoRoute, studioPhotoRoute } from '@/server/orders/photo-routes';
import { adminPhotoRoute, uploadRoute } from '@/server/uploads/handler';
import type { RequestHandlerRoute } from './route-types';

/** Every hand-written /v1 handler (route-types.ts `RequestHandlerRoute`); an issue that adds one registers it here. */
export const requestHandlers: RequestHandlerRoute[] = [uploadRoute(), adminPhotoRoute(), stripeWebhookRoute(), studioPhotoRoute(), orderPhotoRoute()];
