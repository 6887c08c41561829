import 'server-only';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { GOOGLE_ISSUER_DEFAULT } from '@/page-cache/page-policy.mjs';
import { parseTrustProxy, type TrustProxy } from '@/server/http/identity';

/**
 * The whole configuration, read from the environment once and validated here, so a malformed
 * value stops the server at start with one line naming the variable instead of failing later.
 * Every variable is described in .env.example.
 */
const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();
const optionalUrl = optionalText.pipe(z.url({ protocol: /^https?$/ }).optional());
/** A yes/no switch: unset, empty, `0`, `false`, `no` and `off` are off; anything else is on. */
const flag = optionalText.transform((v) => v !== undefined && !['0', 'false', 'no', 'off'].includes(v.toLowerCase()));
const positiveInt = (fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  optionalText.pipe(z.coerce.number<string>().int().min(1).max(max).optional()).transform((v) => v ?? fallback);
/** One line of the shop's identity (a name): printable, at most `max` characters. */
const shopLine = (max: number) =>
  optionalText.pipe(
    z
      .string()
      .max(max, `must be at most ${max} characters`)
      .regex(/^[^\u0000-\u001f\u007f{}]+$/, 'must be one line of text (no braces)')
      .optional(),
  );

/** Google's own signing keys: GOOGLE_JWKS_URL unless a test points it elsewhere (the issuer: GOOGLE_ISSUER_DEFAULT, shared with the page cache). */
const GOOGLE_JWKS_DEFAULT = 'https://www.googleapis.com/oauth2/v3/certs';

/** The studio's address when SHOP_EMAIL is unset: an `.example` domain, which never receives mail. */
export const EXAMPLE_SHOP_EMAIL = 'studio@atelier-prints.example';

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: positiveInt(3000, 65535),
    /** The address shoppers reach the site at; used in checkout return links, sitemaps and e-mail. */
    PUBLIC_BASE_URL: optionalUrl,
    /** A PostgreSQL server to use. Unset: the embedded PostgreSQL in DATA_DIR is started. */
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// connection address')
        .optional(),
    ),
    /** Where the embedded PostgreSQL, generated secrets and private uploads live. */
    DATA_DIR: optionalText.transform((v) => v ?? '.data'),
    /** Staff bearer token (at least 32 characters in production). Unset: every staff endpoint is closed. */
    ADMIN_TOKEN: optionalText,
    NEXTAUTH_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    /** Another address for Stripe's API (a local stand-in in tests); unset: Stripe's own. */
    STRIPE_API_BASE: optionalUrl,
    /**
     * The studio's bank account for transfers (docs/shop.md "Payment"): with BANK_ACCOUNT_HOLDER and
     * BANK_IBAN set, pending orders may be paid by bank transfer (beside Stripe when a key is set too),
     * each value shown with a copy button in the customer's language, with the amount, the order code
     * as the reference and the day an unpaid order is cancelled. The IBAN's check digits and the BIC's
     * form are checked at start (ibantools), so a typo cannot send money astray.
     */
    BANK_ACCOUNT_HOLDER: shopLine(140),
    BANK_IBAN: optionalText.pipe(
      z
        .string()
        .transform((v) => electronicFormatIBAN(v) ?? v)
        .refine((v) => isValidIBAN(v), 'must be a valid IBAN (its check digits do not match)')
        .optional(),
    ),
    BANK_BIC: optionalText.pipe(
      z
        .string()
        .transform((v) => v.replace(/\s+/g, '').toUpperCase())
        .refine((v) => isValidBIC(v), 'must be a BIC of 8 or 11 letters and digits')
        .optional(),
    ),
    BANK_NAME: shopLine(140),
    /**
     * A note on paying (plain text; `\n` starts a new line), shown beside the bank details, or alone
     * as the way to pay when neither Stripe nor a bank account is set. Unset with neither: the studio
     * e-mails how to pay.
     */
    PAYMENT_INSTRUCTIONS: optionalText.transform((v) => v?.replace(/\\n/g, '\n')),
    /** Where customer photos are kept: `disk` (DATA_DIR/uploads, private) or an S3-compatible bucket. */
    UPLOAD_STORAGE: optionalText.pipe(z.enum(['disk', 's3']).optional()).transform((v) => v ?? 'disk'),
    S3_BUCKET: optionalText,
    /** An S3-compatible service's address (MinIO, R2, ...); unset: AWS S3 itself. */
    S3_ENDPOINT: optionalUrl,
    S3_REGION: optionalText,
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: flag,
    SMTP_URL: optionalText.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// address')
        .optional(),
    ),
    MAIL_FROM: optionalText,
    LLM_BASE_URL: optionalUrl,
    LLM_API_KEY: optionalText,
    LLM_MODEL: optionalText,
    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    /** The OpenID Connect issuer of Google ID tokens and its signing keys; tests point them at a local issuer. */
    GOOGLE_ISSUER: optionalUrl.transform((v) => v ?? GOOGLE_ISSUER_DEFAULT),
    GOOGLE_JWKS_URL: optionalUrl.transform((v) => v ?? GOOGLE_JWKS_DEFAULT),
    /**
     * Lets a production server take GOOGLE_ISSUER and GOOGLE_JWKS_URL (a test issuer, as the
     * end-to-end and two-instance runs use): whoever that issuer vouches for signs in. Refused otherwise.
     */
    ALLOW_TEST_IDENTITY_PROVIDER: flag,
    PUBLISH_PER_DAY: positiveInt(300, 100_000),
    /** Memory for cached public catalog answers (per database, MiB); 0 turns the cache off. */
    CATALOG_CACHE_MB: optionalText.pipe(z.coerce.number<string>().int().min(0).max(4096).optional()).transform((v) => v ?? 64),
    /** How often an instance re-reads the catalog version (ms): how stale a cached answer can be. Default 1000 in production, 0 elsewhere. */
    CATALOG_CACHE_RECHECK_MS: optionalText.pipe(z.coerce.number<string>().int().min(0).max(60_000).optional()),
    /** Where artwork thumbnails are fetched (`<url><file>?width=`); Wikimedia Commons unless pointed elsewhere. */
    IMAGE_SOURCE_URL: optionalUrl.transform((v) => v ?? 'https://commons.wikimedia.org/wiki/Special:FilePath/'),
    /** Disk space for kept artwork thumbnails (DATA_DIR/image-cache, MiB); the least recently used go first past it. */
    IMAGE_CACHE_MB: optionalText.pipe(z.coerce.number<string>().int().min(1).max(1_048_576).optional()).transform((v) => v ?? 512),
    /** Wikidata's SPARQL endpoint (a local stand-in in tests). */
    WIKIDATA_SPARQL_URL: optionalUrl.transform((v) => v ?? 'https://query.wikidata.org/sparql'),
    /**
     * The operator's contact (an e-mail address or a web page) in the User-Agent of Wikidata queries,
     * as Wikimedia's User-Agent policy asks; required before an ingest runs against the public endpoint.
     */
    WIKIDATA_CONTACT: optionalText.pipe(
      z
        .string()
        .max(200)
        .regex(/^[^\r\n()]+$/, 'must be one line without parentheses (an e-mail address or a web address)')
        .optional(),
    ),
    /** IndexNow key (served at /<key>.txt) and the endpoints new page addresses go to. Either unset: no notification. */
    INDEXNOW_KEY: optionalText.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9-]{8,128}$/, 'must be 8 to 128 letters, digits or hyphens')
        .optional(),
    ),
    INDEXNOW_ENDPOINTS: optionalText.transform((v, ctx) => {
      const list = (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const url of list) if (!/^https?:\/\/[^\s]+$/.test(url)) ctx.addIssue({ code: 'custom', message: 'must be comma-separated http(s) addresses' });
      return list;
    }),
    /** Inngest: with an event key (or INNGEST_DEV) outbox events go to Inngest; unset, the in-process worker runs them. */
    INNGEST_EVENT_KEY: optionalText,
    INNGEST_SIGNING_KEY: optionalText,
    INNGEST_DEV: flag,
    /** A self-hosted Inngest server or dev server; unset: Inngest Cloud (or the local dev server with INNGEST_DEV). */
    INNGEST_BASE_URL: optionalUrl,
    /**
     * The origin Inngest calls this shop at (https://prints.example, or an address inside the network
     * for a self-hosted Inngest): a sync registers it, whatever address the sync request names.
     */
    INNGEST_SERVE_ORIGIN: optionalUrl,
    /**
     * Behind proxies: how many append to X-Forwarded-For (1 or `true`: one load balancer; 2: a CDN and
     * a load balancer), or the networks they call from (comma-separated CIDRs). The client is the
     * first hop from the shop outward that is no trusted proxy (src/server/http/identity.ts). Unset or 0: the socket's address.
     */
    TRUST_PROXY: optionalText.transform((v, ctx): TrustProxy => {
      const trust = parseTrustProxy(v);
      if (trust === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a number of trusted proxies (1 for one load balancer) or a comma-separated list of their networks (10.0.0.0/8,2001:db8::/32)',
        });
      }
      return trust ?? 0;
    }),
    /** Scales every per-client rate limit (2 doubles them); 0 turns rate limiting off (load tests, a private instance). */
    RATE_LIMIT_MULTIPLIER: optionalText.pipe(z.coerce.number<string>().min(0).max(1_000_000).optional()).transform((v) => v ?? 1),
    /**
     * Turns the staff-token lockout off, which RATE_LIMIT_MULTIPLIER never does. For the test suite,
     * where every request is the one client `local`; refused in production.
     */
    STAFF_LOCKOUT_OFF: flag,
    /** How many processes serve the shop on its port (server.mjs, started by scripts/start.ts): one per core the shop may use. */
    SERVER_PROCESSES: optionalText.pipe(z.coerce.number<string>().int().min(1).max(64).optional()).transform((v) => v ?? 1),
    /** How long a stopping server (SIGTERM) lets requests in flight finish before it exits anyway (ms). */
    SHUTDOWN_GRACE_MS: optionalText.pipe(z.coerce.number<string>().int().min(0).max(600_000).optional()).transform((v) => v ?? 10_000),
    /** The studio's own address: the contact page shows it, and messages for the studio (a customer's sketch decision) go to it. */
    SHOP_EMAIL: optionalText.pipe(z.email('must be an e-mail address').optional()).transform((v) => v ?? EXAMPLE_SHOP_EMAIL),
    /**
     * The shop's identity on its pages (footer, contact, terms, privacy, imprint): see src/server/shop/identity.ts.
     * Unset: clearly fictional example values, and the footer says the shop is a demonstration.
     */
    SHOP_NAME: shopLine(80),
    SHOP_LEGAL_NAME: shopLine(160),
    /** The postal address, lines separated by `|` (or newlines): `12 Canvas Lane|Springfield 12345|Country`. */
    SHOP_ADDRESS: optionalText.transform((v, ctx) => {
      if (v === undefined) return undefined;
      const lines = v
        .split(/\s*(?:\||\\n|\r?\n)\s*/)
        .map((line) => line.trim())
        .filter(Boolean);
      if (lines.length < 2 || lines.length > 8 || lines.some((line) => line.length > 120 || /[\u0000-\u001f]/.test(line))) {
        ctx.addIssue({ code: 'custom', message: 'must be 2 to 8 lines separated by | (street, postal code and town, country), each at most 120 characters' });
      }
      return lines;
    }),
    SHOP_PHONE: optionalText.pipe(
      z
        .string()
        .regex(/^\+?[0-9][0-9 ()./-]{4,28}[0-9]$/, 'must be a telephone number such as +49 30 1234567')
        .optional(),
    ),
    SHOP_VAT_ID: optionalText.pipe(
      z
        .string()
        .regex(/^[A-Za-z]{2,3}[A-Za-z0-9 .-]{2,20}$/, 'must be a VAT identification number such as DE123456789')
        .optional(),
    ),
    /** Who answers for the shop (owner or managing director), named in the imprint. Unset: the legal name. */
    SHOP_RESPONSIBLE: shopLine(160),
    /** Days an order's photos are kept after it is delivered or cancelled (decisions.md "Images and retention"); the privacy page states it. */
    PHOTO_RETENTION_DAYS: positiveInt(180, 3650),
    /** Days after its creation an unpaid order is reminded by e-mail (decisions.md "Payments and refunds"). */
    UNPAID_REMIND_DAYS: positiveInt(7, 365),
    /** Days after its creation an unpaid order is cancelled by the shop (the terms say 14); more than UNPAID_REMIND_DAYS. */
    UNPAID_CANCEL_DAYS: positiveInt(14, 365),
    /**
     * Photo storage customers may fill (MiB, decisions.md "Storage"): past it, counting the uploads no
     * order uses and the photos of unpaid orders, POST /v1/uploads answers 503 storage_full. Staff photos are never refused.
     */
    UPLOAD_QUOTA_MB: positiveInt(5000, 1_048_576),
    /** The least severe log level written (pino levels). */
    LOG_LEVEL: optionalText.pipe(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional()).transform((v) => v ?? 'info'),
    /** Also write the log lines to this file (appended; its folder is created). Unset: stdout only. */
    LOG_FILE: optionalText,
  })
  .superRefine((e, ctx) => {
    // A legal notice that mixes the operator's name with the example address (or the reverse) would
    // mislead shoppers: the identity is either the demonstration one or the operator's own.
    if (Boolean(e.SHOP_LEGAL_NAME) !== Boolean(e.SHOP_ADDRESS)) {
      const missing = e.SHOP_LEGAL_NAME ? 'SHOP_ADDRESS' : 'SHOP_LEGAL_NAME';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: `must be set together with ${missing === 'SHOP_ADDRESS' ? 'SHOP_LEGAL_NAME' : 'SHOP_ADDRESS'} (the imprint and terms name both)`,
      });
    } else if (e.SHOP_ADDRESS && e.SHOP_EMAIL === EXAMPLE_SHOP_EMAIL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SHOP_EMAIL'],
        message: "must be set to the studio's real address when SHOP_LEGAL_NAME and SHOP_ADDRESS are set (the contact page and imprint show it)",
      });
    }
    if (Boolean(e.BANK_ACCOUNT_HOLDER) !== Boolean(e.BANK_IBAN)) {
      const missing = e.BANK_IBAN ? 'BANK_ACCOUNT_HOLDER' : 'BANK_IBAN';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: `must be set together with ${missing === 'BANK_IBAN' ? 'BANK_ACCOUNT_HOLDER' : 'BANK_IBAN'} (a transfer needs both)`,
      });
    }
    if ((e.BANK_BIC || e.BANK_NAME) && !e.BANK_IBAN) ctx.addIssue({ code: 'custom', path: ['BANK_IBAN'], message: 'must be set when BANK_BIC or BANK_NAME is' });
    if (e.UPLOAD_STORAGE === 's3' && !e.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'must be set when UPLOAD_STORAGE=s3' });
    if (e.UNPAID_CANCEL_DAYS <= e.UNPAID_REMIND_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['UNPAID_CANCEL_DAYS'],
        message: `must be greater than UNPAID_REMIND_DAYS (${e.UNPAID_REMIND_DAYS}): the reminder comes before the cancellation`,
      });
    }
    // In any environment (decisions.md "Payments and refunds"): another Stripe address is a stand-in, and a live key must never reach one.
    if (e.STRIPE_API_BASE && !e.STRIPE_SECRET_KEY?.startsWith('sk_test_')) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_API_BASE'],
        message: 'is accepted only with a test key (STRIPE_SECRET_KEY=sk_test_…): it sends the Stripe client to another address, which must never see a live key',
      });
    }
    if (e.NODE_ENV === 'production') {
      // The wrong-token limit (10 per 15 minutes per address) slows guessing; only length makes it
      // hopeless: 32 random characters are beyond any number of addresses and years.
      if (e.ADMIN_TOKEN !== undefined && e.ADMIN_TOKEN.length < MIN_ADMIN_TOKEN_LENGTH) {
        ctx.addIssue({
          code: 'custom',
          path: ['ADMIN_TOKEN'],
          message: `must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters in production (a long random string, e.g. openssl rand -hex 32)`,
        });
      }
      // Dev mode makes /api/inngest run functions for unsigned requests: anyone could send the shop's e-mail or publish runs.
      if (e.INNGEST_DEV)
        ctx.addIssue({
          code: 'custom',
          path: ['INNGEST_DEV'],
          message: 'must not be set in production: Inngest dev mode accepts unsigned calls of /api/inngest (use INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY)',
        });
      // A test issuer in production signs in whoever it vouches for, as any shopper: only on purpose, named so.
      const testIssuer = e.GOOGLE_ISSUER !== GOOGLE_ISSUER_DEFAULT ? 'GOOGLE_ISSUER' : e.GOOGLE_JWKS_URL !== GOOGLE_JWKS_DEFAULT ? 'GOOGLE_JWKS_URL' : undefined;
      if (testIssuer && !e.ALLOW_TEST_IDENTITY_PROVIDER) {
        ctx.addIssue({
          code: 'custom',
          path: [testIssuer],
          message: "must not be set in production: it replaces Google's sign-in tokens with another issuer's (a test issuer needs ALLOW_TEST_IDENTITY_PROVIDER=1)",
        });
      }
      // Over http the cookies are not Secure and no HSTS is sent; a local run on its own machine may use http.
      if (e.PUBLIC_BASE_URL && !isHttpsOrLocal(e.PUBLIC_BASE_URL)) {
        ctx.addIssue({
          code: 'custom',
          path: ['PUBLIC_BASE_URL'],
          message: 'must be an https address in production (http only for 127.0.0.1 or localhost): over http cookies are not Secure and no HSTS is sent',
        });
      }
      // With a database of its own (DATABASE_URL) the shop may run as several instances, each of which
      // would otherwise generate its own secret into its DATA_DIR (NextAuth's cookies, photo addresses
      // and staff sessions would fail across them). The embedded database is one instance's.
      if (e.DATABASE_URL && !e.NEXTAUTH_SECRET) {
        ctx.addIssue({
          code: 'custom',
          path: ['NEXTAUTH_SECRET'],
          message: 'must be set in production with DATABASE_URL: every instance must sign with the same secret (openssl rand -base64 32)',
        });
      }
      // /api/inngest answers signed calls only (syncs included): without the key none can be checked.
      if (e.INNGEST_EVENT_KEY && !e.INNGEST_SIGNING_KEY) {
        ctx.addIssue({
          code: 'custom',
          path: ['INNGEST_SIGNING_KEY'],
          message: 'must be set in production with INNGEST_EVENT_KEY: Inngest signs every call of /api/inngest with it, syncs included',
        });
      }
      if (e.STAFF_LOCKOUT_OFF)
        ctx.addIssue({ code: 'custom', path: ['STAFF_LOCKOUT_OFF'], message: 'must not be set in production: it lets anyone guess ADMIN_TOKEN without limit' });
    }
  });

/** An https address, or http on this machine itself (127.0.0.1, localhost). */
function isHttpsOrLocal(address: string): boolean {
  const url = new URL(address);
  return url.protocol === 'https:' || ['127.0.0.1', 'localhost'].includes(url.hostname);
}

/** The shortest ADMIN_TOKEN a production server accepts. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses an environment; throws a ConfigError whose message is one readable line. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0] ?? 'environment');
  const given = source[variable];
  const shown = given === undefined || variable.match(/SECRET|TOKEN|KEY|PASSWORD|URL/) ? '' : ` (got ${JSON.stringify(given)})`;
  throw new ConfigError(`Configuration error: ${variable} ${describe(issue)}${shown}. See .env.example.`);
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_format' && 'format' in issue && issue.format === 'url') return 'must be an http(s) address';
  if (issue.code === 'too_small' || issue.code === 'too_big' || issue.code === 'invalid_type') {
    return issue.message.replace(/^Too (small|big): expected number to be /, 'must be ').replace(/^Invalid input: /, 'must be ');
  }
  return issue.message;
}

let cached: Env | undefined;

/** The validated configuration of this process. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Which optional services are on, for the one log line each at start. */
export function serviceModes(e: Env): string[] {
  const on = (flag: boolean, name: string, offNote: string) => `${name}: ${flag ? 'on' : `off (${offNote})`}`;
  return [
    on(Boolean(e.STRIPE_SECRET_KEY), 'payments', 'STRIPE_SECRET_KEY unset; orders return checkoutUrl null and staff confirm payment by hand'),
    on(Boolean(e.SMTP_URL), 'mail', 'SMTP_URL unset; order e-mail is not sent'),
    on(inngestConfigured(e), 'Inngest', 'INNGEST_EVENT_KEY and INNGEST_DEV unset; the in-process worker runs outbox jobs such as e-mail'),
    on(e.UPLOAD_STORAGE === 's3', 'S3 photo storage', `UPLOAD_STORAGE=disk; customer photos are kept privately under DATA_DIR/uploads`),
    on(Boolean(e.LLM_BASE_URL), 'language model', 'LLM_BASE_URL unset; stories come from factual templates'),
    on(Boolean(e.INDEXNOW_KEY && e.INDEXNOW_ENDPOINTS.length), 'IndexNow', 'INDEXNOW_KEY or INDEXNOW_ENDPOINTS unset; new pages are found through the sitemaps only'),
    on(wikidataReady(e), 'Wikidata ingest', "WIKIDATA_CONTACT unset; an ingest against the public query.wikidata.org refuses to run until the operator's contact is set"),
    on(Boolean(e.GOOGLE_CLIENT_ID), 'sign-in', 'GOOGLE_CLIENT_ID unset; Google sign-in is disabled'),
    on(Boolean(e.ADMIN_TOKEN), 'staff endpoints', 'ADMIN_TOKEN unset; every staff endpoint answers 401'),
    on(Boolean(e.SHOP_ADDRESS), 'shop identity', 'SHOP_LEGAL_NAME and SHOP_ADDRESS unset; the legal pages show example values and the footer says the shop is a demonstration'),
  ];
}

/**
 * What a production start says loudly (a warning line each): settings that are allowed on purpose
 * but must never be forgotten on a shop with real customers.
 */
export function startWarnings(e: Env): string[] {
  const warnings: string[] = [];
  if (e.NODE_ENV === 'production' && e.ALLOW_TEST_IDENTITY_PROVIDER && (e.GOOGLE_ISSUER !== GOOGLE_ISSUER_DEFAULT || e.GOOGLE_JWKS_URL !== GOOGLE_JWKS_DEFAULT)) {
    warnings.push(
      `WARNING: ALLOW_TEST_IDENTITY_PROVIDER=1: sign-in trusts the identity provider at ${e.GOOGLE_ISSUER} (keys ${e.GOOGLE_JWKS_URL}), not Google; whoever it vouches for signs in as any shopper. Never on a shop with real customers.`,
    );
  }
  return warnings;
}

/** Whether WIKIDATA_SPARQL_URL is Wikimedia's public query service (which wants a contact in the User-Agent). */
export const publicWikidata = (e: Env) => /(^|\.)wikidata\.org$/i.test(new URL(e.WIKIDATA_SPARQL_URL).hostname);

/** Whether an ingest may run: any other endpoint, or the public one with WIKIDATA_CONTACT set. */
export const wikidataReady = (e: Env) => Boolean(e.WIKIDATA_CONTACT) || !publicWikidata(e);

/** Whether outbox events go to an Inngest server (cloud, self-hosted or dev) rather than the in-process worker. */
export function inngestConfigured(e: Env): boolean {
  return Boolean(e.INNGEST_EVENT_KEY) || e.INNGEST_DEV;
}

/** The address shoppers reach the site at, without a trailing slash (e-mail links, checkout return links). */
export function publicBaseUrl(e: Env): string {
  return (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
}
