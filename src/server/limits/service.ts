import 'server-only';
import { isIP } from 'node:net';
import type { Db } from '@/server/db/client';
import type { Env } from '@/server/env';
import { RateLimited } from '@/server/errors';
import { logger } from '@/server/logger';
import { limitPolicies, type LimitName, type LimitPolicy } from './policy';

/**
 * Per-client counters kept in PostgreSQL (`rate_limit_hits`), so every instance of the shop counts
 * into the same rows. A fixed window per (limit, client): one upsert both counts and answers the
 * count, atomically, with the database's clock (instances' clocks may disagree). Fixed windows
 * rather than GCRA: the statement stays a plain upsert whose answer also gives Retry-After (the
 * window's end); the price is that a client can spend two allowances around a window's edge, which
 * a limit meant against guessing and flooding can afford. Nothing here knows about HTTP.
 */
export interface LimitSettings {
  /** RATE_LIMIT_MULTIPLIER: scales every allowance; 0 turns limiting off. Lockouts (staffToken) ignore it. */
  multiplier: number;
  /**
   * STAFF_LOCKOUT_OFF: turns the lockouts off too. For the test suite only, where every request is
   * the one client `local` and wrong tokens of unrelated tests would lock each other out; refused
   * in production (src/server/env.ts).
   */
  lockoutOff?: boolean;
  /** The allowances and windows (limitPolicies unless a test narrows them). */
  policies?: Partial<Record<LimitName, LimitPolicy>>;
  /**
   * The clock requests are counted on. Absent, as in production: the database's own `now()`, one
   * clock for every instance. Tests hand in a fixed moment, so their requests fall in one window
   * without waiting for a window's edge to pass.
   */
  now?: () => Date;
}

/** The configured limits: RATE_LIMIT_MULTIPLIER's, with the lockouts on unless STAFF_LOCKOUT_OFF. */
export function limitSettingsOf(e: Pick<Env, 'RATE_LIMIT_MULTIPLIER' | 'STAFF_LOCKOUT_OFF'>): LimitSettings {
  return { multiplier: e.RATE_LIMIT_MULTIPLIER, lockoutOff: e.STAFF_LOCKOUT_OFF };
}

/** The moment a statement counts at: the settings' clock as a parameter, or null for the database's `now()`. */
const clockOf = (settings: LimitSettings): string | null => settings.now?.().toISOString() ?? null;

export interface Verdict {
  allowed: boolean;
  /** Requests counted in the current window, this one included (a request may count for several: a basket's orders). */
  hits: number;
  /** The scaled allowance. */
  allowance: number;
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
  /** The window this request was counted in (absent when nothing was counted), for giveBack. */
  counted?: { name: LimitName; key: string; windowStart: Date; count: number };
}

/**
 * The key a client is counted under. An IPv6 client is its /64: one subscriber usually holds a
 * whole /64 (often a /56 or /48) and can pick any address in it, so counting single addresses
 * would give each household 2^64 allowances. A limit may count a wider prefix (`ipv6Prefix: 48`,
 * uploads): a /48 is what many providers and any cloud account hand out, 65,536 /64s that would
 * each get the allowance. IPv4 addresses and `local` count as they are.
 */
export function limitKey(client: string, ipv6Prefix: 48 | 64 = 64): string {
  const address = client.split('%')[0]!;
  if (isIP(address) !== 6) return client;
  const kept = ipv6Prefix / 16;
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const front = head ? head.split(':') : [];
  let groups = front;
  if (tail !== undefined && front.length < kept) {
    const back = tail ? tail.split(':') : [];
    // A dotted IPv4 ending (::ffff:1.2.3.4 and friends) takes two groups.
    const backGroups = back.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
    groups = [...front, ...Array<string>(Math.max(0, 8 - front.length - backGroups)).fill('0'), ...back];
  }
  const prefix = groups.slice(0, kept).map((g) => (g.includes('.') ? g : parseInt(g || '0', 16).toString(16)));
  while (prefix.length < kept) prefix.push('0');
  return `${prefix.join(':')}::/${ipv6Prefix}`;
}

/**
 * What a request counts against: a client address, counted under its `limitKey` with the shop's
 * allowances (scaled by the multiplier); or an allowance of its own, counted under its own key as
 * it is (a partner key's: `partnerPolicy` in policy.ts). A multiplier of 0 turns both off.
 */
export type LimitSubject = string | OwnAllowance;

export interface OwnAllowance {
  /** The counter's key, never an address: `partner:<id>`. */
  key: string;
  policy: LimitPolicy;
  /** Whom a refusal names: "with this partner key". */
  who: string;
}

function policyOf(name: LimitName, subject: LimitSubject, settings: LimitSettings): { allowance: number; windowSeconds: number } | null {
  const policy: LimitPolicy = typeof subject === 'string' ? (settings.policies?.[name] ?? limitPolicies[name]) : subject.policy;
  // A lockout holds whatever the multiplier says: RATE_LIMIT_MULTIPLIER=0 used to open ADMIN_TOKEN to unlimited guessing.
  if (policy.lockout ? settings.lockoutOff : !(settings.multiplier > 0)) return null;
  // Lockouts and a partner key's own allowances are exact; an address's are scaled.
  const scale = policy.lockout || typeof subject !== 'string' ? 1 : settings.multiplier;
  return { allowance: Math.max(1, Math.floor(policy.allowance * scale)), windowSeconds: policy.windowSeconds };
}

/** The counter's key: an address under its limit's prefix (policy `ipv6Prefix`), a partner as it is. */
function keyOf(name: LimitName, subject: LimitSubject, settings: LimitSettings): string {
  if (typeof subject !== 'string') return subject.key;
  const policy: LimitPolicy = settings.policies?.[name] ?? limitPolicies[name];
  return limitKey(subject, policy.ipv6Prefix);
}

/**
 * Counts one request of `subject` (a client, or a partner key) against `name`, as `count` of them
 * (a basket of three orders is three orders), and says whether it is within the allowance. One
 * statement both counts and answers, so simultaneous requests each see their own count.
 */
export async function countRequest(db: Db, name: LimitName, subject: LimitSubject, settings: LimitSettings, count = 1): Promise<Verdict> {
  const policy = policyOf(name, subject, settings);
  if (!policy) return { allowed: true, hits: 0, allowance: Infinity, retryAfterSeconds: 0 };
  const key = keyOf(name, subject, settings);
  const at = clockOf(settings);
  // date_bin puts every instance's request in the same window; the hit count is capped so a flood
  // cannot overflow the column.
  const rows = await db.$queryRaw<{ hits: number; left: number; window_start: Date }[]>`
    INSERT INTO rate_limit_hits AS r (limit_name, client, window_start, hits, expires_at)
    SELECT ${name}, ${key}, w.start, ${count}::int, w.start + make_interval(secs => ${policy.windowSeconds})
      FROM (SELECT date_bin(make_interval(secs => ${policy.windowSeconds}), COALESCE(${at}::timestamptz, now()), timestamptz '2000-01-01') AS start) w
    ON CONFLICT (limit_name, client, window_start) DO UPDATE SET hits = LEAST(r.hits + ${count}::int, 1000000000)
    RETURNING r.hits, r.window_start, extract(epoch FROM r.expires_at - COALESCE(${at}::timestamptz, now()))::float8 AS left`;
  sweepNowAndThen(db);
  const row = rows[0]!;
  return { ...verdict(row.hits, row.left, policy.allowance), counted: { name, key, windowStart: row.window_start, count } };
}

/**
 * Takes back a counted request, as many as it counted for (an order refused for its input, a right
 * staff token): the very window it was counted in, never below zero.
 */
export async function giveBack(db: Db, verdict: Verdict): Promise<void> {
  const counted = verdict.counted;
  if (!counted) return;
  await db.$executeRaw`
    UPDATE rate_limit_hits SET hits = GREATEST(hits - ${counted.count}::int, 0)
     WHERE limit_name = ${counted.name} AND client = ${counted.key} AND window_start = ${counted.windowStart}`;
}

/** Whether a limit counts only accepted requests (its refusals for bad input are given back), for this subject. */
export function countsOnlyAccepted(name: LimitName, settings: LimitSettings, subject?: LimitSubject): boolean {
  const policy: LimitPolicy = typeof subject === 'object' ? subject.policy : (settings.policies?.[name] ?? limitPolicies[name]);
  return Boolean(policy.onlyAccepted);
}

/** The current window's count without adding to it (for limits that count failures only). */
export async function peekRequests(db: Db, name: LimitName, client: string, settings: LimitSettings): Promise<Verdict> {
  const policy = policyOf(name, client, settings);
  if (!policy) return { allowed: true, hits: 0, allowance: Infinity, retryAfterSeconds: 0 };
  const at = clockOf(settings);
  const rows = await db.$queryRaw<{ hits: number; left: number }[]>`
    SELECT hits, extract(epoch FROM expires_at - COALESCE(${at}::timestamptz, now()))::float8 AS left
      FROM rate_limit_hits
     WHERE limit_name = ${name} AND client = ${keyOf(name, client, settings)}
       AND window_start = date_bin(make_interval(secs => ${policy.windowSeconds}), COALESCE(${at}::timestamptz, now()), timestamptz '2000-01-01')`;
  const row = rows[0];
  // Peeking asks "may one more come?": at the allowance, the next one may not.
  return row ? verdict(row.hits + 1, row.left, policy.allowance) : verdict(1, policy.windowSeconds, policy.allowance);
}

function verdict(hits: number, secondsLeft: number, allowance: number): Verdict {
  return { allowed: hits <= allowance, hits, allowance, retryAfterSeconds: Math.max(1, Math.ceil(secondsLeft)) };
}

const messages: Record<LimitName, string> = {
  orderCreate: 'Too many orders',
  photoUpload: 'Too many photo uploads',
  orderLookup: 'Too many order lookups',
  signIn: 'Too many sign-in attempts',
  imageMiss: 'Too many new artwork images asked for',
  staffToken: 'Too many wrong staff tokens',
};

function refusal(name: LimitName, subject: LimitSubject, retryAfterSeconds: number): RateLimited {
  const who = typeof subject === 'string' ? 'from your address' : subject.who;
  return new RateLimited(retryAfterSeconds, `${messages[name]} ${who}; try again in ${waitText(retryAfterSeconds)}.`);
}

const waitText = (seconds: number) => (seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);

/**
 * Counts the request and throws RateLimited (429 with Retry-After) when it is over the allowance.
 * Answers the verdict, so a request refused later for its input can be given back (giveBack).
 */
export async function enforceLimit(db: Db, name: LimitName, subject: LimitSubject, settings: LimitSettings, count = 1): Promise<Verdict> {
  const result = await countRequest(db, name, subject, settings, count);
  if (!result.allowed) {
    // A limit of accepted requests does not keep a refusal's count: a basket of three refused at 18
    // of 20 leaves room for a basket of two.
    if (countsOnlyAccepted(name, settings, subject)) await giveBack(db, result);
    logger.warn({ limit: name, client: keyOf(name, subject, settings), hits: result.hits, allowance: result.allowance }, 'rate limit reached');
    throw refusal(name, subject, result.retryAfterSeconds);
  }
  return result;
}

/**
 * An attempt whose failures are limited (a staff token). The attempt is counted as a failure
 * before it runs, in the one statement that also answers the count: over the allowance it is
 * refused with RateLimited without being tried, whether or not it would succeed; a success gives
 * its count back. Checking first and counting after would let simultaneous guesses all pass the
 * check before any of them was counted (50 at once were 50 tries); this way at most the allowance
 * is ever tried per window. Answers whether it succeeded.
 */
export async function limitFailures(db: Db, name: LimitName, client: string, settings: LimitSettings, attempt: () => boolean): Promise<boolean> {
  const reserved = await countRequest(db, name, client, settings);
  if (!reserved.allowed) {
    logger.warn({ limit: name, client, allowance: reserved.allowance }, 'rate limit reached');
    throw refusal(name, client, reserved.retryAfterSeconds);
  }
  if (!attempt()) return false;
  await giveBack(db, reserved);
  return true;
}

const SWEEP_EVERY_MS = 60_000;
const SWEEP_ROWS = 1000;
const lastSweep = new WeakMap<Db, number>();

/**
 * Expired windows are deleted at most once a minute per instance, a bounded batch found through the
 * expires_at index (never a scan of the table), off the request's path: the request does not wait.
 */
function sweepNowAndThen(db: Db): void {
  const now = Date.now();
  if (now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(db, now);
  void sweepExpired(db).catch((error: unknown) => logger.warn({ err: error }, 'rate limits: could not delete expired windows'));
}

/** Deletes up to `batch` expired windows; answers how many. */
export async function sweepExpired(db: Db, batch = SWEEP_ROWS): Promise<number> {
  return db.$executeRaw`
    DELETE FROM rate_limit_hits
     WHERE ctid = ANY (ARRAY(SELECT ctid FROM rate_limit_hits WHERE expires_at < now() ORDER BY expires_at LIMIT ${batch}))`;
}
