import { nextAuthRoute } from '@/server/accounts/nextauth-route';

export const dynamic = 'force-dynamic';

/** The website's redirect sign-in with Google (NextAuth), sharing sessions with /v1/account. */
const handler = nextAuthRoute();
export { handler as GET, handler as POST };
