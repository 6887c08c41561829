import { describe, expect, test } from 'vitest';
import { ConfigError, parseEnv, serviceModes } from '@/server/env';

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

  test('production refuses STAFF_LOCKOUT_OFF (the staff-token lockout is off only in the test suite)', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', STAFF_LOCKOUT_OFF: '1' })).toThrow(/^Configuration error: STAFF_LOCKOUT_OFF must not be set in production/);
    expect(parseEnv({ NODE_ENV: 'test', STAFF_LOCKOUT_OFF: '1' }).STAFF_LOCKOUT_OFF).toBe(true);
  });

  test('a secret is never echoed back in the message', () => {
    expect(() => parseEnv({ NEXTAUTH_SECRET: 'short-secret' })).toThrow(/^(?!.*short-secret).*NEXTAUTH_SECRET/);
  });
});
