import { withRequestLog } from '@/server/http/request-log';
import { signOut } from '@/server/staff/handlers';

export const dynamic = 'force-dynamic';

export const POST = withRequestLog((request: Request) => signOut(request));
