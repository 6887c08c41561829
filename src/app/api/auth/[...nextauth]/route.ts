import NextAuth from 'next-auth';
import { authOptions, defaultNextAuthUrl } from '@/server/accounts/nextauth';

export const dynamic = 'force-dynamic';

/** The website's redirect sign-in with Google (NextAuth), sharing sessions with /v1/account. */
const handler = (req: Request, context: { params: Promise<{ nextauth: string[] }> }) => {
  defaultNextAuthUrl();
  return NextAuth(req as never, context as never, authOptions());
};
export { handler as GET, handler as POST };
