import { signIn } from '@/server/staff/handlers';

export const dynamic = 'force-dynamic';

export const POST = (request: Request) => signIn(request);
