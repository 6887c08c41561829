import { withRequestLog } from '@/server/http/request-log';
import { signIn } from '@/server/staff/handlers';

export const dynamic = 'force-dynamic';

export const POST = withRequestLog((request: Request) => signIn(request));
