import 'server-only';
/**
 * Whether an error means "the database cannot be reached just now" (down, restarting, refusing
 * connections, pool exhausted) rather than a fault in a request or in our code. Such a request was
 * not carried out, and the same request a few seconds later will likely succeed, so /v1 answers
 * it 503 `unavailable` with Retry-After instead of 500 (a load balancer or client can retry).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at && typeof at === 'object' && depth < 8; at = (at as { cause?: unknown }).cause, depth++) {
    const { code, meta, message } = at as { code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown } } } };
    if (typeof code === 'string' && (prismaUnreachable.has(code) || pgUnavailable.has(code) || socketFailures.has(code))) return true;
    if (typeof message === 'string' && pgConnectionLost.some((text) => message.startsWith(text))) return true;
    const cause = meta?.driverAdapterError?.cause;
    if (cause && (adapterUnreachable.has(String(cause.kind)) || (cause.kind === 'postgres' && pgUnavailable.has(String(cause.code))))) return true;
  }
  return false;
}

/** Prisma: can't reach the server, timed out reaching it, closed the connection, no pooled connection in time. */
const prismaUnreachable = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** The driver adapter's kinds for the same. */
const adapterUnreachable = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** PostgreSQL: shutting down or starting up (class 57P), connection exceptions (class 08), too many connections. */
const pgUnavailable = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
/** Node sockets, when the pg driver's own error surfaces. */
const socketFailures = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
/**
 * node-postgres's own errors for a connection that died under a query (they carry no code, and
 * reach us unwrapped when a transaction's connection is cut): its fixed texts in pg/lib/client.js.
 */
const pgConnectionLost = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Query read timeout',
];
