import { z } from 'zod';
import { router, staffProcedure } from '@/server/api/trpc';
import { Board, BoardQuery, changeOrderFromDashboard, DashboardChange, orderBoard, OrderForStaff, orderForStaff } from '@/server/orders/board';
import { locales } from '@/server/shared/locales';
import { pipelineRouter } from '@/server/pipeline/router';

/**
 * What the staff dashboard calls from the browser (served at /staff/api/trpc only, never on /v1):
 * the orders board and order page, and the very pipeline procedures /v1/admin/seo/* serve.
 * Every procedure is a staff procedure; the dashboard's context grants that from its session cookie.
 */
export const staffDashboardRouter = router({
  board: staffProcedure.input(BoardQuery).output(Board).query(({ ctx, input }) => orderBoard(ctx.db, input)),
  order: staffProcedure
    .input(z.object({ code: z.string().trim().min(1).max(20), locale: z.enum(locales).default('en') }))
    .output(OrderForStaff)
    .query(({ ctx, input }) => orderForStaff(ctx.db, input.code, input.locale)),
  changeOrder: staffProcedure.input(DashboardChange).output(OrderForStaff).mutation(({ ctx, input }) => changeOrderFromDashboard(ctx.db, input)),
  pipeline: pipelineRouter,
});

export type StaffDashboardRouter = typeof staffDashboardRouter;
