import { describe, expect, test } from 'vitest';
import { ConfigError, parseEnv, serviceModes, wikidataReady } from '@/server/env';
import { configuredModel, configuredNotifier, configuredWikidata } from '@/server/pipeline/config';

describe('pipeline configuration', () => {
  test("defaults: Wikidata's own endpoint, no IndexNow, no language model", () => {
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

  test('WIKIDATA_CONTACT is required before an ingest against the public endpoint, and the start says so in one line', () => {
    expect(() => configuredWikidata(parseEnv({}))).toThrow(/WIKIDATA_CONTACT must be set/);
    expect(wikidataReady(parseEnv({}))).toBe(false);
    expect(serviceModes(parseEnv({})).filter((line) => line.startsWith('Wikidata ingest: off (WIKIDATA_CONTACT unset'))).toHaveLength(1);
    expect(configuredWikidata(parseEnv({ WIKIDATA_CONTACT: 'ops@atelier-prints.example' }))).toBeTruthy();
    expect(serviceModes(parseEnv({ WIKIDATA_CONTACT: 'https://atelier-prints.example/contact' }))).toContain('Wikidata ingest: on');
    // another endpoint (a mirror, the tests' stand-in) does not need it
    expect(configuredWikidata(parseEnv({ WIKIDATA_SPARQL_URL: 'http://127.0.0.1:9999/sparql' }))).toBeTruthy();
    expect(() => parseEnv({ WIKIDATA_CONTACT: 'ops (at) example' })).toThrow(/WIKIDATA_CONTACT/);
  });
});
