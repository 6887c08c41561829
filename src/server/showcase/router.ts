import 'server-only';
import { z } from 'zod';
import { jsonBody, keptForEveryone, publicProcedure, router, staffProcedure } from '@/server/api/trpc';
import { refreshGalleryPages } from './pages';
import { Showcase, ShowcaseChange, ShowcaseQuery, StaffShowcasePhoto } from './schema';
import { setShowcased, showcase } from './service';

export const showcaseRouter = router({
  gallery: publicProcedure
    .meta({
      // Public and the same for everyone: Cache-Control, ETag and the response cache; showing or
      // taking a photo down bumps the catalog version, which refreshes the cached answers.
      publicCache: true,
      openapi: {
        method: 'GET',
        path: '/showcase',
        tags: ['showcase'],
        protect: false,
        summary: "Finished paintings the studio shows, with their customers' consent",
        description:
          'Newest in the gallery first, at most 24: what was painted (a reproduction or a custom painting in a style), its size and how it hangs, ' +
          "and where its photo is. Never a customer's own photo, never a name.",
        errorResponses: { 400: 'An unknown locale' },
      },
    })
    .input(ShowcaseQuery)
    .use(keptForEveryone)
    .output(Showcase)
    .query(({ ctx, input }) => showcase(ctx.db, input.locale)),

  adminShowcase: staffProcedure
    .meta({
      body: ShowcaseChange,
      openapi: {
        method: 'POST',
        path: '/admin/orders/{code}/photos/{id}/showcase',
        tags: ['staff'],
        protect: true,
        summary: 'Show a finished photo in the public gallery, or take it down (staff)',
        description:
          'Showing needs a finished photo of an order whose customer allowed it (showcaseConsent) in a format the website can draw (not HEIC). ' +
          "Showing a shown photo keeps its place; taking down is always allowed. The website's pages show the change within 5 minutes.",
        errorResponses: {
          400: 'Invalid input (showcased not a boolean, id not a UUID)',
          401: 'Missing or wrong staff token',
          404: 'No order has this code, or the order has no photo with this id',
          409: 'Not a finished photo, no consent on the order, or a photo the website cannot draw',
        },
      },
    })
    .input(jsonBody(ShowcaseChange, { code: z.string().min(1).max(20), id: z.uuid() }))
    .output(StaffShowcasePhoto)
    .mutation(async ({ ctx, input }) => {
      const photo = await setShowcased(ctx.db, input);
      await refreshGalleryPages();
      return photo;
    }),
});
