import { describe, expect, test } from 'vitest';
import { ConfigError, parseEnv, serviceModes, startWarnings } from '@/server/env';

describe('configuration', () => {
  test('nothing configured is a working shop with defaults', () => {
    const config = parseEnv({});
    expect(config.PORT).toBe(3000);
    expect(config.PUBLISH_PER_DAY).toBe(300);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(serviceModes(config).every((line) => line.includes(': off ('))).toBe(true);
  });

  test('PORT and ADMIN_TOKEN are honoured as given', () => {
    const config = parseEnv({ PORT: '8080', ADMIN_TOKEN: 'a-staff-token' });
    expect(config.PORT).toBe(8080);
    expect(config.ADMIN_TOKEN).toBe('a-staff-token');
  });

  test.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/shop'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['PUBLISH_PER_DAY', '0'],
    ['SMTP_URL', 'http://mail'],
  ])('a malformed %s stops with one line naming it', (variable, value) => {
    let thrown: unknown;
    try {
      parseEnv({ [variable]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as Error).message;
    expect(message).toContain(variable);
    expect(message.split('\n')).toHaveLength(1);
  });

  test('production refuses a short ADMIN_TOKEN with one line naming it, and never shows the token', () => {
    const short = 'only-twenty-six-characters';
    expect(() => parseEnv({ NODE_ENV: 'production', ADMIN_TOKEN: short })).toThrow(ConfigError);
    try {
      parseEnv({ NODE_ENV: 'production', ADMIN_TOKEN: short });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/^Configuration error: ADMIN_TOKEN must be at least 32 characters in production/);
      expect(message).not.toContain(short);
      expect(message.split('\n')).toHaveLength(1);
    }
    expect(parseEnv({ NODE_ENV: 'production', ADMIN_TOKEN: 'x'.repeat(32) }).ADMIN_TOKEN).toHaveLength(32);
    // Unset stays allowed (staff endpoints closed), and development keeps any token.
    expect(parseEnv({ NODE_ENV: 'production' }).ADMIN_TOKEN).toBeUndefined();
    expect(parseEnv({ NODE_ENV: 'development', ADMIN_TOKEN: 'short' }).ADMIN_TOKEN).toBe('short');
  });

  test('production refuses INNGEST_DEV (dev mode runs unsigned calls of /api/inngest)', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', INNGEST_DEV: '1' })).toThrow(/^Configuration error: INNGEST_DEV must not be set in production/);
    expect(parseEnv({ NODE_ENV: 'production', INNGEST_DEV: '0' }).INNGEST_DEV).toBe(false);
    expect(parseEnv({ NODE_ENV: 'development', INNGEST_DEV: '1' }).INNGEST_DEV).toBe(true);
  });

  test('production refuses INNGEST_EVENT_KEY without INNGEST_SIGNING_KEY (every call of /api/inngest is signed, syncs too)', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', INNGEST_EVENT_KEY: 'k' })).toThrow(
      /^Configuration error: INNGEST_SIGNING_KEY must be set in production with INNGEST_EVENT_KEY/,
    );
    expect(parseEnv({ NODE_ENV: 'production', INNGEST_EVENT_KEY: 'k', INNGEST_SIGNING_KEY: 'signkey-prod-00' }).INNGEST_SIGNING_KEY).toBe('signkey-prod-00');
    expect(parseEnv({ INNGEST_SERVE_ORIGIN: 'https://prints.example' }).INNGEST_SERVE_ORIGIN).toBe('https://prints.example');
    expect(() => parseEnv({ INNGEST_SERVE_ORIGIN: 'prints.example' })).toThrow(/^Configuration error: INNGEST_SERVE_ORIGIN must be an http\(s\) address/);
  });

  test('production refuses STAFF_LOCKOUT_OFF (the staff-token lockout is off only in the test suite)', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', STAFF_LOCKOUT_OFF: '1' })).toThrow(/^Configuration error: STAFF_LOCKOUT_OFF must not be set in production/);
    expect(parseEnv({ NODE_ENV: 'test', STAFF_LOCKOUT_OFF: '1' }).STAFF_LOCKOUT_OFF).toBe(true);
  });

  test('production refuses GOOGLE_ISSUER and GOOGLE_JWKS_URL unless ALLOW_TEST_IDENTITY_PROVIDER allows them, and then says so loudly', () => {
    const issuer = { GOOGLE_ISSUER: 'http://127.0.0.1:3108', GOOGLE_JWKS_URL: 'http://127.0.0.1:3108/jwks' };
    expect(() => parseEnv({ NODE_ENV: 'production', ...issuer })).toThrow(/^Configuration error: GOOGLE_ISSUER must not be set in production.*ALLOW_TEST_IDENTITY_PROVIDER=1/);
    expect(() => parseEnv({ NODE_ENV: 'production', GOOGLE_JWKS_URL: issuer.GOOGLE_JWKS_URL })).toThrow(/^Configuration error: GOOGLE_JWKS_URL must not be set in production/);
    const allowed = parseEnv({ NODE_ENV: 'production', ...issuer, ALLOW_TEST_IDENTITY_PROVIDER: '1' });
    expect(allowed.GOOGLE_ISSUER).toBe(issuer.GOOGLE_ISSUER);
    const warnings = startWarnings(allowed);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^WARNING: ALLOW_TEST_IDENTITY_PROVIDER=1: .*http:\/\/127\.0\.0\.1:3108/);
    // Google's own (the default, or set to it) needs nothing; development takes any issuer, silently.
    expect(startWarnings(parseEnv({ NODE_ENV: 'production', GOOGLE_ISSUER: 'https://accounts.google.com', ALLOW_TEST_IDENTITY_PROVIDER: '1' }))).toEqual([]);
    expect(startWarnings(parseEnv({ NODE_ENV: 'development', ...issuer }))).toEqual([]);
  });

  test('STRIPE_API_BASE is accepted only with an sk_test_ key, in any environment', () => {
    const base = { STRIPE_API_BASE: 'http://127.0.0.1:12111' };
    for (const NODE_ENV of ['development', 'test', 'production']) {
      for (const key of [undefined, 'sk_live_51abc', 'rk_live_51abc', 'sk_tes_x']) {
        expect(() => parseEnv({ NODE_ENV, ...base, STRIPE_SECRET_KEY: key }), `${NODE_ENV} ${key}`).toThrow(
          /^Configuration error: STRIPE_API_BASE is accepted only with a test key/,
        );
      }
      expect(parseEnv({ NODE_ENV, ...base, STRIPE_SECRET_KEY: 'sk_test_local' }).STRIPE_API_BASE).toBe(base.STRIPE_API_BASE);
    }
    // A live key without STRIPE_API_BASE is Stripe itself.
    expect(parseEnv({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_51abc' }).STRIPE_SECRET_KEY).toBe('sk_live_51abc');
  });

  test('production wants an https PUBLIC_BASE_URL (one line naming it); http only on 127.0.0.1 and localhost', () => {
    for (const url of ['http://prints.example', 'http://localhost.prints.example', 'http://127.0.0.1.nip.io']) {
      let thrown: unknown;
      try {
        parseEnv({ NODE_ENV: 'production', PUBLIC_BASE_URL: url });
      } catch (error) {
        thrown = error;
      }
      expect((thrown as Error).message, url).toMatch(/^Configuration error: PUBLIC_BASE_URL must be an https address in production/);
      expect((thrown as Error).message.split('\n')).toHaveLength(1);
    }
    for (const url of ['https://prints.example', 'http://127.0.0.1:3000', 'http://localhost:3000/'])
      expect(parseEnv({ NODE_ENV: 'production', PUBLIC_BASE_URL: url }).PUBLIC_BASE_URL).toBe(url);
    expect(parseEnv({ NODE_ENV: 'development', PUBLIC_BASE_URL: 'http://prints.example' }).PUBLIC_BASE_URL).toBe('http://prints.example');
  });

  test('production with DATABASE_URL (several instances possible) refuses a missing NEXTAUTH_SECRET', () => {
    const DATABASE_URL = 'postgresql://shop:pw@db:5432/shop';
    expect(() => parseEnv({ NODE_ENV: 'production', DATABASE_URL })).toThrow(/^Configuration error: NEXTAUTH_SECRET must be set in production with DATABASE_URL/);
    expect(parseEnv({ NODE_ENV: 'production', DATABASE_URL, NEXTAUTH_SECRET: 's'.repeat(32) }).NEXTAUTH_SECRET).toHaveLength(32);
    // The embedded database is one instance's own: its generated secret (DATA_DIR/secrets.json) does.
    expect(parseEnv({ NODE_ENV: 'production' }).NEXTAUTH_SECRET).toBeUndefined();
    expect(parseEnv({ NODE_ENV: 'development', DATABASE_URL }).NEXTAUTH_SECRET).toBeUndefined();
  });

  test('the bank account: an IBAN whose check digits hold, kept without spaces; a BIC of 8 or 11; holder and IBAN together', () => {
    expect(parseEnv({ BANK_ACCOUNT_HOLDER: 'Atelier Prints GmbH', BANK_IBAN: 'de89 3704 0044 0532 0130 00', BANK_BIC: 'cobadeff xxx' })).toMatchObject({
      BANK_ACCOUNT_HOLDER: 'Atelier Prints GmbH',
      BANK_IBAN: 'DE89370400440532013000',
      BANK_BIC: 'COBADEFFXXX',
    });
    // One digit wrong: money would go astray, so the shop does not start.
    expect(() => parseEnv({ BANK_ACCOUNT_HOLDER: 'Atelier Prints GmbH', BANK_IBAN: 'DE89 3704 0044 0532 0130 01' })).toThrow(
      /^Configuration error: BANK_IBAN must be a valid IBAN/,
    );
    expect(() => parseEnv({ BANK_ACCOUNT_HOLDER: 'Atelier Prints GmbH', BANK_IBAN: 'DE89370400440532013000', BANK_BIC: 'COBA' })).toThrow(/^Configuration error: BANK_BIC/);
    expect(() => parseEnv({ BANK_IBAN: 'DE89370400440532013000' })).toThrow(/^Configuration error: BANK_ACCOUNT_HOLDER must be set together with BANK_IBAN/);
    expect(() => parseEnv({ BANK_ACCOUNT_HOLDER: 'Atelier Prints GmbH' })).toThrow(/^Configuration error: BANK_IBAN must be set together with BANK_ACCOUNT_HOLDER/);
    expect(() => parseEnv({ BANK_NAME: 'Commerzbank' })).toThrow(/^Configuration error: BANK_IBAN must be set when BANK_BIC or BANK_NAME is/);
  });

  test('UNPAID_REMIND_DAYS and UNPAID_CANCEL_DAYS: 7 and 14 days, the cancellation after the reminder', () => {
    expect(parseEnv({})).toMatchObject({ UNPAID_REMIND_DAYS: 7, UNPAID_CANCEL_DAYS: 14 });
    expect(parseEnv({ UNPAID_REMIND_DAYS: '3', UNPAID_CANCEL_DAYS: '10' })).toMatchObject({ UNPAID_REMIND_DAYS: 3, UNPAID_CANCEL_DAYS: 10 });
    expect(() => parseEnv({ UNPAID_REMIND_DAYS: '14' })).toThrow(/^Configuration error: UNPAID_CANCEL_DAYS must be greater than UNPAID_REMIND_DAYS \(14\)[^(]*$/);
    expect(() => parseEnv({ UNPAID_CANCEL_DAYS: '5' })).toThrow(/^Configuration error: UNPAID_CANCEL_DAYS must be greater than UNPAID_REMIND_DAYS \(7\).*\(got "5"\)/);
    expect(() => parseEnv({ UNPAID_REMIND_DAYS: '0' })).toThrow(/^Configuration error: UNPAID_REMIND_DAYS/);
    expect(() => parseEnv({ UNPAID_CANCEL_DAYS: 'two weeks' })).toThrow(/^Configuration error: UNPAID_CANCEL_DAYS/);
  });

  test('TRUST_PROXY takes a number of hops (1 and true are one) or networks, and stops with one line on anything else', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: '10.0.0.0/8,fd00::/8' }).TRUST_PROXY).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(() => parseEnv({ TRUST_PROXY: 'sometimes' })).toThrow(/^Configuration error: TRUST_PROXY must be a number of trusted proxies .* \(got "sometimes"\)/);
  });

  test('a secret is never echoed back in the message', () => {
    expect(() => parseEnv({ NEXTAUTH_SECRET: 'short-secret' })).toThrow(/^(?!.*short-secret).*NEXTAUTH_SECRET/);
  });
});
