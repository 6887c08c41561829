import 'server-only';
import { z } from 'zod';
import { router, staffProcedure } from '@/server/api/trpc';
import { BasketPaid, Board, BoardQuery, changeOrderFromDashboard, DashboardChange, markBasketPaid, orderBoard, OrderForStaff, orderForStaff } from '@/server/orders/board';
import { partnersRouter } from '@/server/partners/router';
import { refundOrder } from '@/server/payments/refunds';
import { RefundRequest, RefundView } from '@/shared/order-schema';
import { pipelineRouter } from '@/server/pipeline/router';
import { tryPainterAgain } from '@/server/pipeline/stats';
import { refreshGalleryPages } from '@/server/showcase/pages';
import { DashboardShowcase, StaffShowcasePhoto } from '@/server/showcase/schema';
import { setShowcased } from '@/server/showcase/service';
import { locales } from '@/shared/locales';

/**
 * What the staff dashboard calls from the browser (served at /staff/api/trpc only, never on /v1):
 * the orders board and order page, the very pipeline procedures /v1/admin/seo/* serve, and the
 * partner keys (dashboard only: a key is made, seen and revoked by a person, never through /v1).
 * Every procedure is a staff procedure; the dashboard's context grants that from its session cookie.
 */
export const staffDashboardRouter = router({
  board: staffProcedure
    .input(BoardQuery)
    .output(Board)
    .query(({ ctx, input }) => orderBoard(ctx.db, input)),
  order: staffProcedure
    .input(z.object({ code: z.string().trim().min(1).max(20), locale: z.enum(locales).default('en') }))
    .output(OrderForStaff)
    .query(({ ctx, input }) => orderForStaff(ctx.db, input.code, input.locale)),
  changeOrder: staffProcedure
    .input(DashboardChange)
    .output(OrderForStaff)
    .mutation(({ ctx, input }) => changeOrderFromDashboard(ctx.db, input)),
  /** The order page's "Mark the whole basket paid" (a bank transfer of the basket's total). */
  markBasketPaid: staffProcedure
    .input(BasketPaid)
    .output(z.object({ paid: z.array(z.string()) }))
    .mutation(({ ctx, input }) => markBasketPaid(ctx.db, input)),
  /**
   * The order page's "Refund" (the very service of POST /v1/admin/orders/{code}/refunds). The page
   * sends a key of its own per confirmed refund, so a double click or a retried request refunds once.
   */
  refund: staffProcedure
    .input(RefundRequest.extend({ code: z.string().trim().min(1).max(20), idempotencyKey: z.string().min(1).max(255) }))
    .output(RefundView)
    .mutation(async ({ ctx, input }) => {
      const { code, ...request } = input;
      return (await refundOrder(ctx.db, code, request, ctx.payments)).refund;
    }),
  /** The order page's "Show in the gallery" / "Remove from the gallery" (the very operation of POST /v1/admin/orders/{code}/photos/{id}/showcase). */
  showcasePhoto: staffProcedure
    .input(DashboardShowcase)
    .output(StaffShowcasePhoto)
    .mutation(async ({ ctx, input }) => {
      const photo = await setShowcased(ctx.db, input);
      await refreshGalleryPages();
      return photo;
    }),
  pipeline: pipelineRouter,
  /** The catalog page's "Try again" for a painter the ingest set aside. */
  tryPainterAgain: staffProcedure
    .input(z.object({ qid: z.string().regex(/^Q\d{1,12}$/) }))
    .output(z.object({ cleared: z.boolean() }))
    .mutation(({ ctx, input }) => tryPainterAgain(ctx.db, input.qid)),
  partners: partnersRouter,
});

export type StaffDashboardRouter = typeof staffDashboardRouter;
