/**
 * The one HTTP helper of the catalog integrations (Wikidata, the language model, IndexNow): a
 * descriptive User-Agent, a timeout per attempt, and retries with exponential backoff on network
 * errors, 429 and 5xx, honouring `Retry-After` (seconds or an HTTP date) up to `maxDelayMs`.
 */
export const USER_AGENT = 'AtelierPrintsCatalog/1.0 (art-print shop catalog pipeline; https://github.com/atelier-prints) node-fetch';

export interface RetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
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
  if (!headers.has('user-agent')) headers.set('user-agent', USER_AGENT);
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let delay = Math.min(base * 2 ** (attempt - 1), max);
    try {
      const response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(options.timeoutMs ?? 55_000) });
      if (response.ok) return response;
      const body = await response.text().catch(() => '');
      lastError = new HttpError(response.status, `${init.method ?? 'GET'} ${new URL(url).host} answered ${response.status}: ${body.slice(0, 200)}`);
      if (!retriable(response.status)) throw lastError;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== undefined) delay = Math.min(asked, max);
    } catch (error) {
      if (error instanceof HttpError && !retriable(error.status)) throw error;
      lastError = error;
    }
    if (attempt < attempts) await sleep(delay);
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}
