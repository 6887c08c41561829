import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Level, type LevelWithSilent, type LogFn, type Logger } from 'pino';
import { env, type Env } from '@/server/env';

/**
 * The shop's log: JSON lines (pino) on stdout, and in LOG_FILE too when set. Every line written
 * while a request is handled carries its `requestId` (runInRequest). Callers log structured fields
 * (`logger.warn({ orderCode }, 'message')`) or printf-style messages (`logger.info('a %s', x)`).
 *
 * Secrets and personal data must never be passed, but two nets catch what slips through:
 * `redact` blanks fields named like credentials or e-mail addresses, and every finished line is
 * scrubbed of e-mail addresses, Stripe-shaped secrets, bearer tokens and the configured secrets
 * themselves (ADMIN_TOKEN, NEXTAUTH_SECRET, …) before it is written anywhere.
 */

export interface RequestContext {
  requestId: string;
  client: string;
}

const requestStore = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` as the handling of one request: everything it logs carries `context.requestId`. */
export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return requestStore.run(context, fn);
}

/** The request being handled, if any. */
export function currentRequest(): RequestContext | undefined {
  return requestStore.getStore();
}

/** Field names whose values never reach the log, at the top or one level down (and in headers). */
const redactedPaths = [
  ...['authorization', 'cookie', 'email', 'token', 'password', 'secret', 'credential', 'customer'].flatMap((key) => [key, `*.${key}`, `headers.${key}`, `*.headers.${key}`]),
  'headers["set-cookie"]',
  '*.headers["set-cookie"]',
  // The front's proof of the client header (src/server/http/client.ts).
  'headers["x-shop-proof"]',
  '*.headers["x-shop-proof"]',
];

const emailish = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const stripeSecretish = /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]+|\bwhsec_[A-Za-z0-9_]+/g;
const bearerish = /\b(Bearer)\s+[^\s"\\,;]+/gi;
/** A partner key anywhere in a line (a client pasting it into a field, say), not only after `Bearer`. */
const partnerKeyish = /\bpk_live_[A-Za-z0-9_-]+/g;

/** Masks what must never be written, in one finished log line. */
export function scrubLine(line: string, secrets: readonly string[] = configuredSecrets()): string {
  let out = line.replace(emailish, '[e-mail]').replace(stripeSecretish, '[stripe-secret]').replace(partnerKeyish, '[partner-key]').replace(bearerish, '$1 [redacted]');
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[secret]');
  return out;
}

const secretSettings = [
  'ADMIN_TOKEN',
  'NEXTAUTH_SECRET',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'LLM_API_KEY',
  'S3_SECRET_ACCESS_KEY',
  'GOOGLE_CLIENT_SECRET',
  'INNGEST_SIGNING_KEY',
  'INNGEST_EVENT_KEY',
] as const;

let secretsCache: string[] | undefined;

/** The configured secrets' values (and the SMTP and database passwords), longest first. */
function configuredSecrets(): string[] {
  if (secretsCache) return secretsCache;
  const e = safeEnv();
  const values: string[] = secretSettings.map((name) => e?.[name] ?? process.env[name] ?? '');
  for (const url of [e?.SMTP_URL, e?.DATABASE_URL]) {
    try {
      if (url) values.push(decodeURIComponent(new URL(url).password));
    } catch {
      // not an address: nothing to take from it
    }
  }
  secretsCache = [...new Set(values.filter((v) => v.length >= 8))].sort((a, b) => b.length - a.length);
  return secretsCache;
}

function safeEnv(): Env | undefined {
  try {
    return env();
  } catch {
    // A malformed configuration is itself logged (scripts/start.ts); the log must still work.
    return undefined;
  }
}

/**
 * A stream that scrubs each line before handing it on (`raw`, for tests, sees the line before).
 * Errors go to `errors` (stderr) instead of the first target (stdout), as console.error did.
 */
function scrubbing(targets: DestinationStream[], raw?: string[], errors?: DestinationStream): DestinationStream {
  return {
    write(line: string) {
      raw?.push(line);
      const clean = scrubLine(line);
      // The level is the first field of every line (formatters.level below).
      const severe = errors && (line.startsWith('{"level":"error"') || line.startsWith('{"level":"fatal"'));
      targets.forEach((target, i) => (i === 0 && severe ? errors : target).write(clean));
    },
  };
}

/**
 * Quiet inside Vitest's test workers unless LOG_LEVEL asks otherwise: test output stays readable.
 * (Its worker global, not the VITEST variable, which servers and scripts a test starts inherit.)
 */
function configuredLevel(): LevelWithSilent {
  if ('__vitest_worker__' in globalThis && !process.env.LOG_LEVEL) return 'silent';
  return safeEnv()?.LOG_LEVEL ?? 'info';
}

function build(targets: DestinationStream[], level: LevelWithSilent, raw?: string[], errors?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      messageKey: 'msg',
      redact: { paths: redactedPaths, censor: '[redacted]' },
      mixin: () => {
        const request = requestStore.getStore();
        return request ? { requestId: request.requestId } : {};
      },
    },
    scrubbing(targets, raw, errors),
  );
}

let instance: Logger | undefined;

function current(): Logger {
  if (instance) return instance;
  const targets: DestinationStream[] = [pino.destination({ dest: 1, sync: true })];
  const file = safeEnv()?.LOG_FILE ?? process.env.LOG_FILE;
  if (file) targets.push(pino.destination({ dest: file, sync: true, mkdir: true, append: true }));
  instance = build(targets, configuredLevel(), undefined, pino.destination({ dest: 2, sync: true }));
  return instance;
}

const method =
  (level: Level): LogFn =>
  (...args: Parameters<LogFn>) =>
    (current()[level] as LogFn)(...args);

export const logger = {
  fatal: method('fatal'),
  error: method('error'),
  warn: method('warn'),
  info: method('info'),
  debug: method('debug'),
  trace: method('trace'),
};

/**
 * For tests: every line from now on (all levels) goes to `lines`, scrubbed exactly as it would be
 * written, and to `raw` as the callers made it (before the scrubbing net), until `stop()`.
 */
export function captureLogs(): { lines: string[]; raw: string[]; stop(): void } {
  const previous = instance;
  const lines: string[] = [];
  const raw: string[] = [];
  secretsCache = undefined;
  instance = build([{ write: (line: string) => void lines.push(line) }], 'trace', raw);
  return {
    lines,
    raw,
    stop: () => {
      instance = previous;
    },
  };
}
