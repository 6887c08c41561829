import { describe, expect, test } from 'vitest';
import { ConfigError, parseEnv } from '@/server/env';
import { configuredModel, configuredNotifier } from '@/server/pipeline/config';

describe('pipeline configuration', () => {
  test('defaults: Wikidata\'s own endpoint, no IndexNow, no language model', () => {
    const e = parseEnv({});
    expect(e.WIKIDATA_SPARQL_URL).toBe('https://query.wikidata.org/sparql');
    expect(e.INDEXNOW_ENDPOINTS).toEqual([]);
    expect(configuredNotifier(e)).toBeNull();
    expect(configuredModel(e)).toBeNull();
  });

  test('IndexNow needs a key and at least one endpoint; endpoints are comma-separated addresses', () => {
    const e = parseEnv({ INDEXNOW_KEY: 'a1b2c3d4e5f6', INDEXNOW_ENDPOINTS: ' https://api.indexnow.org/indexnow , https://www.bing.com/indexnow ' });
    expect(e.INDEXNOW_ENDPOINTS).toEqual(['https://api.indexnow.org/indexnow', 'https://www.bing.com/indexnow']);
    expect(configuredNotifier(e)).not.toBeNull();
    expect(configuredNotifier(parseEnv({ INDEXNOW_KEY: 'a1b2c3d4e5f6' }))).toBeNull();
    expect(() => parseEnv({ INDEXNOW_ENDPOINTS: 'api.indexnow.org' })).toThrow(ConfigError);
    expect(() => parseEnv({ INDEXNOW_KEY: 'short' })).toThrow(/INDEXNOW_KEY/);
    expect(() => parseEnv({ WIKIDATA_SPARQL_URL: 'ftp://example.org' })).toThrow(/WIKIDATA_SPARQL_URL/);
  });
});
