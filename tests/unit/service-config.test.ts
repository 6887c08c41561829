import { describe, expect, test } from 'vitest';
import { ConfigError, inngestConfigured, parseEnv, publicBaseUrl, serviceModes } from '@/server/env';
import { DiskPhotoStorage, S3PhotoStorage, storageFor } from '@/server/integrations/storage';
import { jobMode } from '@/server/jobs/runner';

describe('configuration of payments, uploads, mail and jobs', () => {
  test('defaults: photos on disk under DATA_DIR/uploads, the in-process worker, links to localhost:PORT', () => {
    const config = parseEnv({ PORT: '4100', DATA_DIR: '/srv/shop-data' });
    expect(config.UPLOAD_STORAGE).toBe('disk');
    expect((storageFor(config) as DiskPhotoStorage).root).toBe('/srv/shop-data/uploads');
    expect(inngestConfigured(config)).toBe(false);
    expect(jobMode(config).mode).toBe('worker');
    expect(publicBaseUrl(config)).toBe('http://localhost:4100');
    expect(publicBaseUrl(parseEnv({ PUBLIC_BASE_URL: 'https://prints.example/' }))).toBe('https://prints.example');
  });

  test('UPLOAD_STORAGE=s3 uses the bucket and needs S3_BUCKET', () => {
    expect(storageFor(parseEnv({ UPLOAD_STORAGE: 's3', S3_BUCKET: 'photos', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: '1' }))).toBeInstanceOf(S3PhotoStorage);
    expect(() => parseEnv({ UPLOAD_STORAGE: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => parseEnv({ UPLOAD_STORAGE: 'ftp' })).toThrow(ConfigError);
  });

  test('a malformed STRIPE_API_BASE, S3_ENDPOINT or INNGEST_BASE_URL stops the start with one line naming it', () => {
    for (const variable of ['STRIPE_API_BASE', 'S3_ENDPOINT', 'INNGEST_BASE_URL']) {
      expect(() => parseEnv({ [variable]: 'not a url' })).toThrow(new RegExp(`^Configuration error: ${variable}`));
    }
  });

  test('Inngest is on with an event key or INNGEST_DEV, and the log line says which', () => {
    expect(jobMode(parseEnv({ INNGEST_EVENT_KEY: 'key' })).line).toContain('Inngest Cloud');
    expect(jobMode(parseEnv({ INNGEST_DEV: '1' })).line).toContain('dev server');
    expect(jobMode(parseEnv({ INNGEST_EVENT_KEY: 'key', INNGEST_BASE_URL: 'http://inngest:8288' })).line).toContain('http://inngest:8288');
    expect(inngestConfigured(parseEnv({ INNGEST_DEV: '0' }))).toBe(false);
    expect(inngestConfigured(parseEnv({ INNGEST_DEV: 'false' }))).toBe(false);
  });

  test('the start-up lines say which services are on', () => {
    const on = serviceModes(parseEnv({ STRIPE_SECRET_KEY: 'sk', SMTP_URL: 'smtp://localhost:25', INNGEST_EVENT_KEY: 'k', UPLOAD_STORAGE: 's3', S3_BUCKET: 'b' }));
    for (const name of ['payments', 'mail', 'Inngest', 'S3 photo storage']) expect(on).toContain(`${name}: on`);
    const off = serviceModes(parseEnv({}));
    expect(off.find((line) => line.startsWith('Inngest'))).toMatch(/in-process worker/);
  });
});
