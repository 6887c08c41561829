import 'server-only';
/**
 * The one HTTP helper of the catalog integrations (Wikidata, the language model, IndexNow): a
 * descriptive User-Agent, a timeout per attempt, and retries with exponential backoff on network
 * errors, 429 and 5xx, honouring `Retry-After` (seconds or an HTTP date): up to `maxDelayMs` it
 * waits, beyond it a 429 stops with `RateLimitedError` for the caller to stop until then.
 */
/**
 * Wikimedia's User-Agent policy (https://meta.wikimedia.org/wiki/User-Agent_policy) wants
 * `<client>/<version> (<contact>) <library>/<version>`; the contact is the operator's
 * (WIKIDATA_CONTACT), never a hard-coded one. The library is Node's own fetch.
 */
export function userAgent(contact?: string): string {
  return `AtelierPrintsCatalog/1.1 (${contact ?? 'art-print shop catalog pipeline'}) Node.js/${process.versions.node}`;
}
export const USER_AGENT = userAgent();

export interface RetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  userAgent?: string;
  /** An answer that must not be retried unchanged (a query that ran out of time): the error to throw at once. */
  stopOn?: (status: number, body: string) => Error | undefined;
  /** Our own per-attempt timeout, turned into this error and not retried (default: retried like a network error). */
  onTimeout?: () => Error;
  /** Gives up at once when aborted (a caller's overall deadline). */
  signal?: AbortSignal;
}

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A 429 whose `Retry-After` is longer than this client waits (`maxDelayMs`): the caller must stop
 * until then. Waiting less and asking again is what gets a client banned from WDQS for a day.
 */
export class RateLimitedError extends HttpError {
  override name = 'RateLimitedError';
  constructor(
    readonly retryAfterMs: number,
    message: string,
  ) {
    super(429, message);
  }
}

/** Carries an error that must reach the caller without another attempt. */
class StopRetrying extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds a `Retry-After` header asks for, or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const retriable = (status: number) => status === 429 || status >= 500;

export async function fetchWithRetry(url: string, init: RequestInit, options: RetryOptions = {}): Promise<Response> {
  const attempts = options.attempts ?? 5;
  const base = options.baseDelayMs ?? 1_000;
  const max = options.maxDelayMs ?? 120_000;
  const sleep = options.sleep ?? wait;
  const headers = new Headers(init.headers);
  if (!headers.has('user-agent')) headers.set('user-agent', options.userAgent ?? USER_AGENT);
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let delay = Math.min(base * 2 ** (attempt - 1), max);
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 55_000);
    try {
      options.signal?.throwIfAborted();
      const response = await fetch(url, { ...init, headers, signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout });
      if (response.ok) return response;
      const body = await response.text().catch(() => '');
      const stop = options.stopOn?.(response.status, body);
      if (stop) throw new StopRetrying(stop);
      lastError = new HttpError(response.status, `${init.method ?? 'GET'} ${new URL(url).host} answered ${response.status}: ${body.slice(0, 200)}`);
      if (!retriable(response.status)) throw lastError;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== undefined && asked > max && response.status === 429) {
        throw new StopRetrying(new RateLimitedError(asked, `${new URL(url).host} asks us to wait ${Math.ceil(asked / 1000)} s (429 Retry-After)`));
      }
      if (asked !== undefined) delay = Math.min(asked, max);
    } catch (error) {
      if (error instanceof HttpError && !retriable(error.status)) throw error;
      if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted');
      if (error instanceof StopRetrying) throw error.cause;
      if (timeout.aborted && options.onTimeout) throw options.onTimeout();
      lastError = error;
    }
    if (attempt < attempts) await sleep(delay);
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}
