import 'server-only';
import { crossSite } from '@/server/accounts/session';
import type { Context } from '@/server/api/trpc';
import { env } from '@/server/env';
import type { PlacedBy } from './service';

/**
 * Who places an order or a basket besides its customer: a partner's key, or the account signed in
 * on the shop (the order joins its "My orders"); never a session sent from another site's page,
 * which the session cookie must not serve. The actor was found once per request already (the
 * limit asked for it).
 */
export async function placedByOf(ctx: Context): Promise<PlacedBy | undefined> {
  const actor = await ctx.actor();
  if (actor.kind === 'partner') return { partnerKeyId: actor.partner.id };
  if (actor.kind === 'customer' && !crossSite(ctx.req, env())) return { userId: actor.user.id };
  return undefined;
}
