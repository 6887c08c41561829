import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import { artworksBySlugs } from '@/server/catalog/service';
import type { Db } from '@/server/db/client';
import { DomainError, notFound } from '@/server/errors';
import type { GoogleIdentity } from '@/server/integrations/google';
import type { Locale } from '@/shared/locales';
import { newSessionToken, SESSION_MAX_AGE_SECONDS } from './session';

/** Accounts: users, their sessions (NextAuth's tables) and favorites. Knows nothing of HTTP. */

export interface AccountUser {
  id: string;
  email: string | null;
  name: string | null;
  image: string | null;
}

const userFields = { id: true, email: true, name: true, image: true } as const;
/** The provider name NextAuth's Google provider stores in `accounts.provider`. */
export const GOOGLE_PROVIDER = 'google';
export const MAX_MERGE_SLUGS = 500;

export const unauthorized = () => new DomainError('unauthorized', 'Sign in first: this needs a session.');

/**
 * Signs a verified Google identity in: the user and account rows the redirect flow (NextAuth's
 * Prisma adapter) would make are found or made, keyed by the Google subject, and a session row
 * is created. A user already known by the same verified e-mail gets the Google account linked.
 */
export async function signInWithGoogle(db: Db, identity: GoogleIdentity, now = new Date()) {
  try {
    return await signInOnce(db, identity, now);
  } catch (error) {
    // Two first sign-ins of one person at once: the other made the rows; this one finds them.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return signInOnce(db, identity, now);
    throw error;
  }
}

function signInOnce(db: Db, identity: GoogleIdentity, now: Date) {
  return db.$transaction(async (tx) => {
    const account = await tx.account.findUnique({
      where: { provider_providerAccountId: { provider: GOOGLE_PROVIDER, providerAccountId: identity.subject } },
      select: { userId: true },
    });
    let userId = account?.userId;
    if (!userId) {
      const user = await tx.user.upsert({
        where: { email: identity.email },
        update: { emailVerified: now },
        create: { email: identity.email, emailVerified: now, name: identity.name, image: identity.picture },
        select: { id: true },
      });
      userId = user.id;
      await tx.account.create({
        data: { userId, type: 'oauth', provider: GOOGLE_PROVIDER, providerAccountId: identity.subject },
      });
    }
    const expires = new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
    const session = await tx.session.create({ data: { sessionToken: newSessionToken(), userId, expires } });
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: userFields });
    return { user, sessionToken: session.sessionToken, expires };
  });
}

/** The user of a live session, or null for no token, an unknown token or an expired session. */
export async function sessionUser(db: Db, token: string | null, now = new Date()): Promise<AccountUser | null> {
  if (!token) return null;
  const session = await db.session.findUnique({ where: { sessionToken: token }, select: { expires: true, user: { select: userFields } } });
  return session && session.expires > now ? session.user : null;
}

/** Ends a session for good: its row is deleted. */
export async function endSession(db: Db, token: string | null): Promise<void> {
  if (token) await db.session.deleteMany({ where: { sessionToken: token } });
}

/** The user's favorites as catalog cards, newest first; works no longer published are left out. */
export async function listFavorites(db: Db, userId: string, locale: Locale) {
  const rows = await db.favorite.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { artworkId: 'desc' }], select: { artwork: { select: { slug: true } } } });
  return {
    items: await artworksBySlugs(
      db,
      rows.map((r) => r.artwork.slug),
      locale,
    ),
  };
}

async function publishedArtworkId(db: Db, slug: string): Promise<number> {
  const artwork = await db.artwork.findFirst({ where: { slug, status: 'published' }, select: { id: true } });
  if (!artwork) throw notFound(`There is no published artwork "${slug}".`);
  return artwork.id;
}

/** Adds a favorite; adding one twice changes nothing. */
export async function addFavorite(db: Db, userId: string, slug: string) {
  const artworkId = await publishedArtworkId(db, slug);
  await db.favorite.createMany({ data: [{ userId, artworkId }], skipDuplicates: true });
  return { slug, favorite: true };
}

/** Removes a favorite; removing one that is not there changes nothing. */
export async function removeFavorite(db: Db, userId: string, slug: string) {
  const artworkId = await publishedArtworkId(db, slug);
  await db.favorite.deleteMany({ where: { userId, artworkId } });
  return { slug, favorite: false };
}

/**
 * Adds a signed-out list (kept in the browser, newest first) to the stored favorites; unknown and
 * unpublished slugs are ignored, and ones already stored keep their place. The new ones come
 * first in the order given: each gets a creation time one millisecond older than the one before,
 * since the list is ordered by that time and one shared `now()` would leave their order to chance.
 * The newest of them is at least as many milliseconds after the newest stored favorite as there
 * are of them, so even the last is above a heart given a moment before the merge.
 */
export async function mergeFavorites(db: Db, userId: string, slugs: string[], locale: Locale, now = new Date()) {
  const wanted = [...new Set(slugs)];
  if (wanted.length) {
    const [artworks, newest] = await Promise.all([
      db.artwork.findMany({ where: { slug: { in: wanted }, status: 'published' }, select: { id: true, slug: true } }),
      db.favorite.findFirst({ where: { userId }, orderBy: { createdAt: 'desc' }, select: { createdAt: true } }),
    ]);
    const idOf = new Map(artworks.map((a) => [a.slug, a.id]));
    const top = Math.max(now.getTime(), (newest?.createdAt.getTime() ?? 0) + wanted.length);
    const data = wanted.flatMap((slug, i) => {
      const artworkId = idOf.get(slug);
      return artworkId === undefined ? [] : [{ userId, artworkId, createdAt: new Date(top - i) }];
    });
    await db.favorite.createMany({ data, skipDuplicates: true });
  }
  return listFavorites(db, userId, locale);
}
