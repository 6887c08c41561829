import 'server-only';
import { accountProcedure, customerProcedure, jsonBody, router, type Meta } from '@/server/api/trpc';
import { env } from '@/server/env';
import { DomainError } from '@/server/errors';
import { verifyGoogleIdToken } from '@/server/integrations/google';
import { Basket } from '@/shared/basket-schema';
import { MAX_CHECKOUT_ITEMS } from '@/shared/orders';
import { basketOf, mergeBasket, saveBasket } from './basket';
import { AccountConfig, AccountOrders, Favorites, FavoritesQuery, FavoriteSlug, FavoriteState, GoogleSignIn, Me, MergeFavorites, SignedIn } from './schema';
import { MAX_ACCOUNT_ORDERS, ordersOfAccount } from './orders';
import { addFavorite, endSession, listFavorites, mergeFavorites, removeFavorite, signInWithGoogle } from './service';
import { secureCookies, sessionCookie, sessionTokenFrom } from './session';
import { z } from 'zod';
import type { RequestHead } from '@/server/http/answers';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** An account operation; `session` says whether the session cookie is required or only read. */
const account = (
  method: Method,
  path: `/${string}`,
  summary: string,
  session: 'required' | 'optional',
  errorResponses: Record<number, string> = {},
  /** What a client needs beyond the summary: every operation of the document says it (Spectral's operation-description). */
  description: string,
): Meta => ({
  session,
  openapi: {
    method,
    path,
    tags: ['account'],
    protect: false,
    summary,
    description,
    errorResponses: session === 'required' ? { 401: 'No live session, or a cross-site request', ...errorResponses } : errorResponses,
  },
});

/** The session a request's cookie names, live or not (sign-out ends it either way). */
const token = (req: RequestHead | undefined) => sessionTokenFrom(req, secureCookies(env()));

export const accountRouter = router({
  config: accountProcedure
    .meta(
      account(
        'GET',
        '/account/config',
        'Sign-in configuration: the Google client id, and whether sign-in is on',
        'optional',
        {},
        'What a website or app needs to offer Google sign-in; sign-in is off when the shop has no Google client id configured.',
      ),
    )
    .input(z.object({}))
    .output(AccountConfig)
    .query(() => {
      const clientId = env().GOOGLE_CLIENT_ID ?? null;
      return { googleClientId: clientId, signInEnabled: clientId !== null };
    }),

  me: accountProcedure
    .meta(
      account(
        'GET',
        '/account/me',
        'The signed-in user, or null without a live session',
        'optional',
        {},
        'Reads the session cookie and never fails for want of one: an expired, ended or unknown session answers null, as no cookie does.',
      ),
    )
    .input(z.object({}))
    .output(Me)
    .query(async ({ ctx }) => {
      const actor = await ctx.actor();
      return { user: actor.kind === 'customer' ? actor.user : null };
    }),

  signInWithGoogle: accountProcedure
    .meta({
      rateLimit: 'signIn',
      body: GoogleSignIn,
      ...account(
        'POST',
        '/account/auth/google',
        'Sign in with a Google ID token (Google Identity Services); sets the session cookie',
        'optional',
        {
          401: 'The token does not verify (signature, audience, issuer, expiry, unverified e-mail), sign-in is off, or a cross-site request',
        },
        "The ID token Google gave the page is checked against Google's keys and this shop's client id; the answer sets an httpOnly session cookie and names the user. Limited per client, as wrong tokens are.",
      ),
    })
    .input(jsonBody(GoogleSignIn))
    .output(SignedIn)
    .mutation(async ({ ctx, input }) => {
      const e = env();
      if (!e.GOOGLE_CLIENT_ID) throw new DomainError('unauthorized', 'Sign-in is not enabled on this shop.');
      const identity = await verifyGoogleIdToken(input.credential, { clientId: e.GOOGLE_CLIENT_ID, issuer: e.GOOGLE_ISSUER, jwksUrl: e.GOOGLE_JWKS_URL });
      const { user, sessionToken, expires } = await signInWithGoogle(ctx.db, identity);
      ctx.resHeaders?.append('Set-Cookie', sessionCookie(secureCookies(e), sessionToken, expires));
      return { user };
    }),

  logout: accountProcedure
    .meta(
      account(
        'POST',
        '/account/auth/logout',
        'Sign out: the session ends for good and the cookie is cleared',
        'optional',
        {},
        'Ends the session the cookie names on the server, so a copy of the cookie no longer works either; without a live session it still clears the cookie and answers the same.',
      ),
    )
    .input(z.object({}))
    .output(z.object({ user: z.null() }))
    .mutation(async ({ ctx }) => {
      await endSession(ctx.db, token(ctx.req));
      ctx.resHeaders?.append('Set-Cookie', sessionCookie(secureCookies(env()), null));
      return { user: null };
    }),

  favorites: customerProcedure
    .meta(
      account(
        'GET',
        '/account/favorites',
        'The favorites, newest first, as catalog cards',
        'required',
        {},
        'The same cards as the catalog lists answer, for the works this account keeps.',
      ),
    )
    .input(FavoritesQuery)
    .output(Favorites)
    .query(({ ctx, input }) => listFavorites(ctx.db, ctx.user.id, input.locale)),

  addFavorite: customerProcedure
    .meta(
      account(
        'PUT',
        '/account/favorites/{slug}',
        'Add a favorite (adding twice changes nothing)',
        'required',
        { 404: 'No published artwork with this slug' },
        'Answers whether the work is now a favorite; only published works can be kept.',
      ),
    )
    .input(FavoriteSlug)
    .output(FavoriteState)
    .mutation(({ ctx, input }) => addFavorite(ctx.db, ctx.user.id, input.slug)),

  removeFavorite: customerProcedure
    .meta(
      account(
        'DELETE',
        '/account/favorites/{slug}',
        'Remove a favorite (removing twice changes nothing)',
        'required',
        { 404: 'No published artwork with this slug' },
        'Answers whether the work is still a favorite (it is not).',
      ),
    )
    .input(FavoriteSlug)
    .output(FavoriteState)
    .mutation(({ ctx, input }) => removeFavorite(ctx.db, ctx.user.id, input.slug)),

  orders: customerProcedure
    .meta(
      account(
        'GET',
        '/account/orders',
        "The account's orders, newest first",
        'required',
        {},
        "The orders placed while signed in to this account, and the orders whose customer e-mail is the account's verified Google e-mail " +
          `(any letter case), newest first: at most the newest ${MAX_ACCOUNT_ORDERS}. Each order's page is GET /v1/orders/{code}.`,
      ),
    )
    .input(z.object({}))
    .output(AccountOrders)
    .query(({ ctx }) => ordersOfAccount(ctx.db, ctx.user.id)),

  mergeFavorites: customerProcedure
    .meta({
      body: MergeFavorites,
      ...account(
        'POST',
        '/account/favorites/merge',
        'Merge a list kept while signed out (at most 500 slugs) into the favorites; answers the merged list',
        'required',
        {},
        "For the first sign-in on a device: the slugs the browser kept join the account's favorites; sending the same list again changes nothing.",
      ),
    })
    .input(jsonBody(MergeFavorites))
    .output(Favorites)
    .mutation(({ ctx, input }) => mergeFavorites(ctx.db, ctx.user.id, input.slugs, input.locale)),

  basket: customerProcedure
    .meta(
      account(
        'GET',
        '/account/basket',
        "The account's basket: the works put aside to be ordered and paid together, oldest first",
        'required',
        {},
        'Each entry is the item POST /v1/checkouts takes, with its id, when it was added and, for a custom painting, when its photo was uploaded and a small ' +
          'picture of it. An account that never saved a basket has an empty one. Ordering it is POST /v1/checkouts, which leaves this list as it is.',
      ),
    )
    .input(z.object({}))
    .output(Basket)
    .query(({ ctx }) => basketOf(ctx.db, ctx.user.id)),

  saveBasket: customerProcedure
    .meta({
      body: Basket,
      ...account(
        'PUT',
        '/account/basket',
        "Replace the account's basket with the list given, all of it; answers the basket saved",
        'required',
        {},
        `The whole list, oldest first: at most ${MAX_CHECKOUT_ITEMS} entries (what one payment takes); an empty list empties the basket. Two entries with one id, or ` +
          'two custom items with one uploadId, are 400 invalid_input naming the entry (entries[3].id: …), and nothing is saved.',
      ),
    })
    .input(jsonBody(Basket))
    .output(Basket)
    .mutation(({ ctx, input }) => saveBasket(ctx.db, ctx.user.id, input.entries)),

  mergeBasket: customerProcedure
    .meta({
      body: Basket,
      ...account(
        'POST',
        '/account/basket/merge',
        "Merge a basket kept while signed out into the account's; answers the merged basket",
        'required',
        {},
        "The account's entries first, then those given whose id, and for a custom item whose uploadId, the account's do not have, in their order; " +
          `cut at ${MAX_CHECKOUT_ITEMS} entries, the rest dropped. Two merges at once both count: each merges into what the other saved.`,
      ),
    })
    .input(jsonBody(Basket))
    .output(Basket)
    .mutation(({ ctx, input }) => mergeBasket(ctx.db, ctx.user.id, input.entries)),
});
