import 'server-only';
import { z } from 'zod';
import { router, staffProcedure } from '@/server/api/trpc';
import { CreatedPartnerKey, CreatePartnerKey, PartnerKeyView, RevokePartnerKey } from './schema';
import { createPartnerKey, listPartnerKeys, revokePartnerKey } from './service';

/** The dashboard's Partners page: make a key (shown once), list keys with their use, revoke one. Staff only. */
export const partnersRouter = router({
  list: staffProcedure
    .input(z.object({}).optional())
    .output(z.array(PartnerKeyView))
    .query(({ ctx }) => listPartnerKeys(ctx.db)),
  create: staffProcedure
    .input(CreatePartnerKey)
    .output(CreatedPartnerKey)
    .mutation(({ ctx, input }) => createPartnerKey(ctx.db, input)),
  revoke: staffProcedure
    .input(RevokePartnerKey)
    .output(PartnerKeyView)
    .mutation(({ ctx, input }) => revokePartnerKey(ctx.db, input.id)),
});
