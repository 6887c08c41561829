import 'server-only';
import { ConfigError, env, publicBaseUrl, publicWikidata, type Env } from '@/server/env';
import { userAgent } from '@/server/integrations/http';
import { indexNow, type SearchNotifier } from '@/server/integrations/indexnow';
import { chatModel, type LanguageModel } from '@/server/integrations/llm';
import { sparqlClient, wikidataSource, type Sparql, type WikidataSource } from '@/server/integrations/wikidata';

/** The pipeline's integrations as the configuration names them (each null when not configured). */
/**
 * Wikidata as configured. Against the public query service the operator's contact must be set
 * (Wikimedia's User-Agent policy): without it the ingest stops before its first query.
 */
export function configuredWikidata(e: Env = env()): WikidataSource {
  return wikidataSource(configuredSparql(e));
}

/** The SPARQL client behind it, with the operator's contact in its User-Agent (the probe asks it directly). */
export function configuredSparql(e: Env = env()): Sparql {
  if (publicWikidata(e) && !e.WIKIDATA_CONTACT) {
    throw new ConfigError(
      'Configuration error: WIKIDATA_CONTACT must be set (an e-mail address or web page of the operator) before the catalog ingest queries the public Wikidata endpoint. See .env.example.',
    );
  }
  return sparqlClient({ url: e.WIKIDATA_SPARQL_URL, userAgent: userAgent(e.WIKIDATA_CONTACT) });
}

export function configuredModel(e: Env = env()): LanguageModel | null {
  return e.LLM_BASE_URL ? chatModel({ baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL }) : null;
}

export function configuredNotifier(e: Env = env()): SearchNotifier | null {
  return e.INDEXNOW_KEY && e.INDEXNOW_ENDPOINTS.length ? indexNow({ endpoints: e.INDEXNOW_ENDPOINTS, key: e.INDEXNOW_KEY, baseUrl: publicBaseUrl(e) }) : null;
}
