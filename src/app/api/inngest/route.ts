import { serve } from 'inngest/next';
import { env, inngestConfigured } from '@/server/env';
import { withRequestLog } from '@/server/http/request-log';
import { inngest } from '@/server/jobs/client';
import { functions } from '@/server/jobs/functions';

export const dynamic = 'force-dynamic';

/**
 * Every call is signed, syncs too (`enableUnauthedSync: false`, Inngest SDK 4.4+): an unsigned PUT
 * used to make the shop register itself with Inngest, at the address taken from that request.
 * Inngest Cloud and a self-hosted server sync in band, signed, with the address they were given;
 * INNGEST_SERVE_ORIGIN, when set, is registered instead. (Dev mode, refused in production, checks
 * no signatures at all.)
 */
const inngestHandlers = serve({ client: inngest, functions, enableUnauthedSync: false, serveOrigin: env().INNGEST_SERVE_ORIGIN });

/** With no Inngest configured the in-process worker runs the jobs, and nobody should call here. */
const off = () =>
  Response.json({ error: { code: 'not_found', message: 'Inngest is not configured on this server (INNGEST_EVENT_KEY, INNGEST_DEV); jobs run in-process.' } }, { status: 404 });

type Handler = typeof inngestHandlers.GET;
const whenConfigured = (handler: Handler) => withRequestLog((...args: Parameters<Handler>) => (inngestConfigured(env()) ? handler(...args) : Promise.resolve(off())));

/** Where Inngest calls the shop's functions (src/server/jobs/functions.ts). */
export const GET = whenConfigured(inngestHandlers.GET);
export const POST = whenConfigured(inngestHandlers.POST);
export const PUT = whenConfigured(inngestHandlers.PUT);
