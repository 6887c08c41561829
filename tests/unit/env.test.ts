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

  test('a secret is never echoed back in the message', () => {
    expect(() => parseEnv({ NEXTAUTH_SECRET: 'short-secret' })).toThrow(/^(?!.*short-secret).*NEXTAUTH_SECRET/);
  });
});
