import { env, publicBaseUrl, type Env } from '@/server/env';
import { indexNow, type SearchNotifier } from '@/server/integrations/indexnow';
import { chatModel, type LanguageModel } from '@/server/integrations/llm';
import { sparqlClient, wikidataSource, type WikidataSource } from '@/server/integrations/wikidata';

/** The pipeline's integrations as the configuration names them (each null when not configured). */
export function configuredWikidata(e: Env = env()): WikidataSource {
  return wikidataSource(sparqlClient({ url: e.WIKIDATA_SPARQL_URL }));
}

export function configuredModel(e: Env = env()): LanguageModel | null {
  return e.LLM_BASE_URL ? chatModel({ baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL }) : null;
}

export function configuredNotifier(e: Env = env()): SearchNotifier | null {
  return e.INDEXNOW_KEY && e.INDEXNOW_ENDPOINTS.length ? indexNow({ endpoints: e.INDEXNOW_ENDPOINTS, key: e.INDEXNOW_KEY, baseUrl: publicBaseUrl(e) }) : null;
}
