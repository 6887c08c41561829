/**
 * The most calls one tRPC batch may carry, on the website's /api/trpc and the dashboard's
 * /staff/api/trpc. The browsers' batch links split at this size (src/trpc/react.tsx,
 * src/app/staff/_lib/trpc.tsx) and the servers refuse a longer batch with 400: without a bound,
 * one request of a few KiB could run hundreds of procedures (and database queries). No page asks
 * for more than a handful at once.
 */
export const MAX_TRPC_BATCH = 10;
