import 'server-only';
import { z } from 'zod';
import { ArtworkCard } from '@/server/catalog/schema';
import { locales } from '@/shared/locales';
import { orderKinds, orderStatuses } from '@/shared/orders';
import { MAX_MERGE_SLUGS } from './service';

/** The account contracts (decisions.md "Accounts"). */

const locale = z.enum(locales).default('en').describe('Language of the cards; English fills what a language lacks');
const slug = z.string().min(1).max(160);

export const AccountConfig = z
  .object({
    googleClientId: z.string().nullable().describe('The OAuth client id for Google Identity Services; null when sign-in is off'),
    signInEnabled: z.boolean(),
  })
  .meta({ id: 'AccountConfig' });

export const AccountUser = z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable(), image: z.string().nullable() }).meta({ id: 'AccountUser' });

export const Me = z.object({ user: AccountUser.nullable().describe('null without a live session') });
export const SignedIn = z.object({ user: AccountUser });

export const GoogleSignIn = z.object({
  credential: z.string().min(1).max(8192).describe('A Google ID token (the "credential" of Google Identity Services)'),
});

export const Favorites = z.object({ items: z.array(ArtworkCard) });
export const FavoritesQuery = z.object({ locale });
export const FavoriteSlug = z.object({ slug });
export const FavoriteState = z.object({ slug: z.string(), favorite: z.boolean() });

export const MergeFavorites = z.object({
  slugs: z
    .array(slug)
    .max(MAX_MERGE_SLUGS, `at most ${MAX_MERGE_SLUGS} slugs`)
    .describe('Slugs kept while signed out, newest first (the new favorites keep this order); unknown and unpublished ones are ignored'),
  locale,
});

/** One order of the account's, as "My orders" lists it (its page, `GET /v1/orders/{code}`, has the rest). */
export const AccountOrder = z
  .object({
    code: z.string(),
    kind: z.enum(orderKinds),
    status: z.enum(orderStatuses),
    total: z.int().describe('Integer US cents'),
    createdAt: z.iso.datetime(),
    artworkSlug: z.string().nullable().describe('The work ordered as a reproduction; null for a custom painting'),
    checkout: z.string().nullable().describe('The code of the basket the order was paid in; null for an order on its own'),
  })
  .meta({ id: 'AccountOrder' });

export const AccountOrders = z.object({ orders: z.array(AccountOrder).describe('Newest first') });
