import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ConfigError, parseEnv, serviceModes } from '@/server/env';
import { shopIdentity, telHref } from '@/server/shop/identity';

const configured = {
  SHOP_NAME: 'Atelier Rosa',
  SHOP_LEGAL_NAME: 'Rosa Malerei GmbH',
  SHOP_ADDRESS: 'Leinwandweg 4 | 10115 Berlin | Deutschland',
  SHOP_EMAIL: 'hallo@atelier-rosa.de',
  SHOP_PHONE: '+49 30 1234567',
  SHOP_VAT_ID: 'DE123456789',
  SHOP_RESPONSIBLE: 'Rosa Beispiel',
};

/** The one line a bad setting stops the server with. */
function configError(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message.split('\n')).toHaveLength(1);
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('the shop identity (SHOP_* settings)', () => {
  test('nothing configured is a demonstration with plainly fictional values', () => {
    const identity = shopIdentity(parseEnv({}));
    expect(identity.demo).toBe(true);
    expect(identity.name).toBe('Atelier Prints');
    expect(identity.email).toBe('studio@atelier-prints.example');
    expect(identity.phone).toMatch(/^\+1 555 01\d\d$/); // 555-0100..0199: reserved for fiction
    expect(identity.address.length).toBeGreaterThanOrEqual(2);
    expect(identity.address.join(' ')).toMatch(/Example/);
    expect(identity.legalName).toMatch(/Example/);
    expect(identity.vatId).toMatch(/^XX0+$/);
    expect(identity.photoRetentionDays).toBe(180);
    expect(serviceModes(parseEnv({}))).toContain(
      'shop identity: off (SHOP_LEGAL_NAME and SHOP_ADDRESS unset; the legal pages show example values and the footer says the shop is a demonstration)',
    );
  });

  test('a configured identity is used as given, the address split into lines', () => {
    const identity = shopIdentity(parseEnv({ ...configured, PHOTO_RETENTION_DAYS: '90' }));
    expect(identity).toEqual({
      name: 'Atelier Rosa',
      legalName: 'Rosa Malerei GmbH',
      address: ['Leinwandweg 4', '10115 Berlin', 'Deutschland'],
      email: 'hallo@atelier-rosa.de',
      phone: '+49 30 1234567',
      vatId: 'DE123456789',
      responsible: 'Rosa Beispiel',
      photoRetentionDays: 90,
      unpaidRemindDays: 7,
      unpaidCancelDays: 14,
      demo: false,
    });
    expect(serviceModes(parseEnv(configured))).toContain('shop identity: on');
    expect(telHref(identity.phone!)).toBe('tel:+49301234567');
  });

  test('address lines may also be separated by \\n (as a .env file writes them) or real newlines', () => {
    expect(parseEnv({ ...configured, SHOP_ADDRESS: '1 Quay Street\\nDublin D02 XY45\\nIreland' }).SHOP_ADDRESS).toEqual(['1 Quay Street', 'Dublin D02 XY45', 'Ireland']);
    expect(parseEnv({ ...configured, SHOP_ADDRESS: '1 Quay Street\nDublin D02 XY45\n' }).SHOP_ADDRESS).toEqual(['1 Quay Street', 'Dublin D02 XY45']);
  });

  test('optional parts fall back sensibly: the brand name, the legal name as responsible, no telephone or VAT number', () => {
    const identity = shopIdentity(parseEnv({ SHOP_LEGAL_NAME: 'Rosa Malerei GmbH', SHOP_ADDRESS: 'Leinwandweg 4|10115 Berlin', SHOP_EMAIL: 'hallo@atelier-rosa.de' }));
    expect(identity).toMatchObject({ name: 'Atelier Prints', responsible: 'Rosa Malerei GmbH', phone: null, vatId: null, demo: false });
  });

  test('the legal name and the address come together, never mixed with the examples', () => {
    expect(configError({ SHOP_LEGAL_NAME: 'Rosa Malerei GmbH', SHOP_EMAIL: 'hallo@atelier-rosa.de' })).toMatch(
      /^Configuration error: SHOP_ADDRESS must be set together with SHOP_LEGAL_NAME/,
    );
    expect(configError({ SHOP_ADDRESS: 'Leinwandweg 4|10115 Berlin', SHOP_EMAIL: 'hallo@atelier-rosa.de' })).toMatch(
      /^Configuration error: SHOP_LEGAL_NAME must be set together with SHOP_ADDRESS/,
    );
    expect(configError({ SHOP_LEGAL_NAME: 'Rosa Malerei GmbH', SHOP_ADDRESS: 'Leinwandweg 4|10115 Berlin' })).toMatch(
      /^Configuration error: SHOP_EMAIL must be set to the studio's real address/,
    );
  });

  test.each([
    ['SHOP_ADDRESS', 'Leinwandweg 4'],
    ['SHOP_ADDRESS', 'a|b|c|d|e|f|g|h|i'],
    ['SHOP_PHONE', 'call us'],
    ['SHOP_VAT_ID', '12'],
    ['SHOP_NAME', 'x'.repeat(81)],
    ['SHOP_LEGAL_NAME', 'Rosa {GmbH}'],
    ['SHOP_EMAIL', 'not-an-address'],
    ['PHOTO_RETENTION_DAYS', '0'],
    ['PHOTO_RETENTION_DAYS', 'half a year'],
  ])('a malformed %s stops the start with one line naming it', (variable, value) => {
    const base: Record<string, string> = variable === 'SHOP_ADDRESS' ? { SHOP_LEGAL_NAME: 'Rosa Malerei GmbH', SHOP_EMAIL: 'hallo@atelier-rosa.de' } : {};
    expect(configError({ ...base, [variable]: value })).toContain(`Configuration error: ${variable} `);
  });

  test('a name may be set on its own: the demonstration keeps its example address', () => {
    const identity = shopIdentity(parseEnv({ SHOP_NAME: 'Atelier Rosa' }));
    expect(identity).toMatchObject({ name: 'Atelier Rosa', demo: true });
  });
});

test('every identity setting is described in .env.example', () => {
  const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
  for (const name of ['SHOP_NAME', 'SHOP_LEGAL_NAME', 'SHOP_ADDRESS', 'SHOP_EMAIL', 'SHOP_PHONE', 'SHOP_VAT_ID', 'SHOP_RESPONSIBLE', 'PHOTO_RETENTION_DAYS']) {
    expect(example, name).toMatch(new RegExp(`^${name}=`, 'm'));
  }
});
