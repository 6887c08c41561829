import { fetchWithRetry, type RetryOptions } from './http';

/**
 * Wikidata through its SPARQL endpoint (address from WIKIDATA_SPARQL_URL). The pipeline sees only
 * `WikidataSource`: candidate painters, a painter's paintings, and labels of items, each paged so
 * that every query stays far below the endpoint's 60-second limit.
 */
export interface SparqlBinding {
  [variable: string]: { type: string; value: string; datatype?: string; 'xml:lang'?: string } | undefined;
}

export interface Sparql {
  select(query: string): Promise<SparqlBinding[]>;
}

export function sparqlClient(options: { url: string; retry?: RetryOptions }): Sparql {
  return {
    async select(query) {
      const response = await fetchWithRetry(
        options.url,
        {
          method: 'POST',
          headers: { accept: 'application/sparql-results+json', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ query }).toString(),
        },
        { timeoutMs: 58_000, ...options.retry },
      );
      const json = (await response.json()) as { results?: { bindings?: SparqlBinding[] } };
      if (!Array.isArray(json.results?.bindings)) throw new Error('The SPARQL endpoint answered without results.bindings');
      return json.results.bindings;
    },
  };
}

export const qid = (uri: string | undefined): string | null => {
  const match = uri?.match(/\/entity\/(Q\d+)$/);
  return match ? match[1]! : null;
};

/** Wikidata's unit items for lengths, in centimetres. */
export const unitsInCm: Record<string, number> = {
  Q174728: 1, // centimetre
  Q174789: 0.1, // millimetre
  Q11573: 100, // metre
  Q218593: 2.54, // inch
};

/** "73.7 http://www.wikidata.org/entity/Q174728" (amount and unit) → centimetres, one decimal; null for an unknown unit. */
export function toCentimetres(quantity: string | undefined): number | null {
  if (!quantity) return null;
  const [amount, unit] = quantity.trim().split(/\s+/);
  const factor = unitsInCm[qid(unit) ?? ''];
  const value = Number(amount);
  if (factor === undefined || !Number.isFinite(value) || value <= 0) return null;
  const cm = Math.round(value * factor * 10) / 10;
  return cm > 0 && cm < 1_000_000 ? cm : null;
}

/** The year of an xsd:dateTime as Wikidata writes it ("1889-01-01T00:00:00Z", "-0500-…"). */
export function yearOf(date: string | undefined): number | null {
  const match = date?.match(/^([+-]?\d{1,})-/);
  return match ? Number(match[1]) : null;
}

/** A Commons file name from the Special:FilePath address Wikidata gives for P18. */
export function commonsFile(uri: string | undefined): string | null {
  if (!uri) return null;
  const name = decodeURIComponent(uri.replace(/^https?:\/\/commons\.wikimedia\.org\/wiki\/Special:FilePath\//, ''));
  return name ? name.replace(/_/g, ' ').slice(0, 400) : null;
}

const TOOL = '#TOOL: atelier-prints catalog ingest';
export const labelLanguages = ['en', 'es', 'fr', 'de', 'it', 'ja'] as const;

/**
 * Painters who qualify (human, painter, died before 1926, at least 5 paintings with an image), most
 * paintings first. The count runs over paintings with an image only; paged by LIMIT/OFFSET.
 */
export function paintersQuery(limit: number, offset: number): string {
  return `${TOOL} (painters)
SELECT ?painter ?death ?birth ?paintings WHERE {
  {
    SELECT ?painter (COUNT(DISTINCT ?painting) AS ?paintings) WHERE {
      ?painting wdt:P31 wd:Q3305213 ;
                wdt:P170 ?painter ;
                wdt:P18 ?image .
    }
    GROUP BY ?painter
    HAVING (COUNT(DISTINCT ?painting) >= 5)
  }
  ?painter wdt:P31 wd:Q5 ;
           wdt:P106 wd:Q1028181 ;
           wdt:P570 ?death .
  OPTIONAL { ?painter wdt:P569 ?birth . }
  FILTER (YEAR(?death) < 1926)
}
ORDER BY DESC(?paintings) ?painter
LIMIT ${limit} OFFSET ${offset}`;
}

/** One painter's paintings, one row each (multi-valued properties grouped), paged by LIMIT/OFFSET. */
export function paintingsQuery(painterQid: string, limit: number, offset: number): string {
  return `${TOOL} (paintings)
SELECT ?painting ?painter
       (SAMPLE(?img) AS ?image) (SAMPLE(?inc) AS ?inception)
       (SAMPLE(CONCAT(STR(?h), " ", STR(?hu))) AS ?height)
       (SAMPLE(CONCAT(STR(?w), " ", STR(?wu))) AS ?width)
       (GROUP_CONCAT(DISTINCT STRAFTER(STR(?coll), "entity/"); separator=" ") AS ?collections)
       (GROUP_CONCAT(DISTINCT STRAFTER(STR(?mov), "entity/"); separator=" ") AS ?movements)
       (GROUP_CONCAT(DISTINCT STRAFTER(STR(?gen), "entity/"); separator=" ") AS ?genres)
       (GROUP_CONCAT(DISTINCT STRAFTER(STR(?dep), "entity/"); separator=" ") AS ?depicts)
       (SAMPLE(?links) AS ?sitelinks)
WHERE {
  VALUES ?painter { wd:${painterQid} }
  ?painting wdt:P31 wd:Q3305213 ;
            wdt:P170 ?painter ;
            wikibase:sitelinks ?links .
  OPTIONAL { ?painting wdt:P18 ?img . }
  OPTIONAL { ?painting wdt:P571 ?inc . }
  OPTIONAL { ?painting p:P2048/psv:P2048 [ wikibase:quantityAmount ?h ; wikibase:quantityUnit ?hu ] . }
  OPTIONAL { ?painting p:P2049/psv:P2049 [ wikibase:quantityAmount ?w ; wikibase:quantityUnit ?wu ] . }
  OPTIONAL { ?painting wdt:P195 ?coll . }
  OPTIONAL { ?painting wdt:P135 ?mov . }
  OPTIONAL { ?painting wdt:P136 ?gen . }
  OPTIONAL { ?painting wdt:P180 ?dep . }
}
GROUP BY ?painting ?painter
ORDER BY ?painting
LIMIT ${limit} OFFSET ${offset}`;
}

/** Labels of up to a few hundred items in the six catalog languages. */
export function labelsQuery(qids: string[], limit: number, offset: number): string {
  return `${TOOL} (labels)
SELECT ?item ?label WHERE {
  VALUES ?item { ${qids.map((q) => `wd:${q}`).join(' ')} }
  ?item rdfs:label ?label .
  FILTER (LANG(?label) IN (${labelLanguages.map((l) => `"${l}"`).join(', ')}))
}
ORDER BY ?item
LIMIT ${limit} OFFSET ${offset}`;
}

export interface PainterCandidate {
  qid: string;
  paintings: number;
  birthYear: number | null;
  deathYear: number | null;
}

export interface PaintingFacts {
  qid: string;
  painterQid: string;
  imageFile: string | null;
  year: number | null;
  heightCm: number | null;
  widthCm: number | null;
  collections: string[];
  movements: string[];
  genres: string[];
  depicts: string[];
  sitelinks: number;
}

export type Labels = Map<string, Partial<Record<(typeof labelLanguages)[number], string>>>;

/** What the ingest needs from Wikidata. */
export interface WikidataSource {
  painters(limit: number, offset: number): Promise<PainterCandidate[]>;
  paintings(painterQid: string): Promise<PaintingFacts[]>;
  labels(qids: string[]): Promise<Labels>;
}

const ids = (text: string | undefined) => (text ?? '').split(/\s+/).filter((q) => /^Q\d+$/.test(q));

export function wikidataSource(sparql: Sparql, options: { pageSize?: number; labelBatch?: number } = {}): WikidataSource {
  const pageSize = options.pageSize ?? 500;
  const labelBatch = options.labelBatch ?? 200;
  return {
    async painters(limit, offset) {
      const rows = await sparql.select(paintersQuery(limit, offset));
      return rows.flatMap((row) => {
        const id = qid(row.painter?.value);
        return id ? [{ qid: id, paintings: Number(row.paintings?.value ?? 0), birthYear: yearOf(row.birth?.value), deathYear: yearOf(row.death?.value) }] : [];
      });
    },
    async paintings(painterQid) {
      const all: PaintingFacts[] = [];
      for (let offset = 0; ; offset += pageSize) {
        const rows = await sparql.select(paintingsQuery(painterQid, pageSize, offset));
        for (const row of rows) {
          const id = qid(row.painting?.value);
          if (!id) continue;
          if (all.some((p) => p.qid === id)) continue;
          all.push({
            qid: id,
            painterQid,
            imageFile: commonsFile(row.image?.value),
            year: yearOf(row.inception?.value),
            heightCm: toCentimetres(row.height?.value),
            widthCm: toCentimetres(row.width?.value),
            collections: ids(row.collections?.value),
            movements: ids(row.movements?.value),
            genres: ids(row.genres?.value),
            depicts: ids(row.depicts?.value),
            sitelinks: Number(row.sitelinks?.value ?? 0) || 0,
          });
        }
        if (rows.length < pageSize) return all;
      }
    },
    async labels(qids) {
      const labels: Labels = new Map();
      const unique = [...new Set(qids)];
      for (let i = 0; i < unique.length; i += labelBatch) {
        const batch = unique.slice(i, i + labelBatch);
        const page = batch.length * labelLanguages.length;
        for (let offset = 0; ; offset += page) {
          const rows = await sparql.select(labelsQuery(batch, page, offset));
          for (const row of rows) {
            const id = qid(row.item?.value);
            const lang = row.label?.['xml:lang'] as (typeof labelLanguages)[number] | undefined;
            if (!id || !lang || !labelLanguages.includes(lang) || !row.label?.value) continue;
            labels.set(id, { ...labels.get(id), [lang]: row.label.value });
          }
          if (rows.length < page) break;
        }
      }
      return labels;
    },
  };
}
