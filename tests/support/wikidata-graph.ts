/**
 * Writes Turtle in the shape of Wikidata's RDF dump and query service (https://www.mediawiki.org/wiki/Wikibase/Indexing/RDF_Dump_Format):
 * items with `rdfs:label`/`schema:name` per language (`mul` included), full statements
 * (`p:` → `wds:` node with `wikibase:rank`, `ps:` simple value, `psv:` → `wdv:` value node with
 * `wikibase:quantityAmount`/`wikibase:quantityUnit`, `pq:` qualifiers), truthy `wdt:` triples for
 * the best rank only (preferred if any, else normal; never deprecated), and sitelinks as
 * `schema:Article` nodes (`schema:about`, `schema:isPartOf` a site with `wikibase:wikiGroup`) plus
 * the `wikibase:sitelinks` count over every sister project.
 *
 * Used by the generated graphs (the benchmark, the 20-painter test); tests/fixtures/wikidata/*.ttl
 * were written with it once and are edited by hand since.
 */
export const TURTLE_PREFIXES = `@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix p: <http://www.wikidata.org/prop/> .
@prefix ps: <http://www.wikidata.org/prop/statement/> .
@prefix psv: <http://www.wikidata.org/prop/statement/value/> .
@prefix pq: <http://www.wikidata.org/prop/qualifier/> .
@prefix wds: <http://www.wikidata.org/entity/statement/> .
@prefix wdv: <http://www.wikidata.org/value/> .
@prefix wikibase: <http://wikiba.se/ontology#> .
@prefix schema: <http://schema.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
`;

export type Rank = 'preferred' | 'normal' | 'deprecated';
/** A date: an ISO day, a time value with its precision (and optionally the P1480 "circa" qualifier), or Wikidata's unknown value. */
export type DateValue = string | { date: string; precision: number; rank?: Rank; circa?: boolean } | 'unknown';
export type Labels = Record<string, string>;

/** A statement's value with its rank and qualifiers (`pq:P518` "applies to part", `pq:P582` "end time", ...). */
export interface Statement<T> {
  value: T;
  rank?: Rank;
  /** Qualifier property → an item Q-id or an ISO date ("1890-01-01"). */
  qualifiers?: Record<string, string>;
}
export interface Quantity {
  amount: number | string;
  /** Unit item: Q174728 cm, Q174789 mm, Q11573 m, Q218593 inch, Q3710 foot. */
  unit: string;
}

export interface ItemSpec {
  qid: string;
  labels?: Labels;
  /** Item-valued properties (P31, P106, P170, P135, P136, P180, P195, ...): plain Q-ids are normal-rank statements. */
  items?: Record<string, (string | Statement<string>)[]>;
  /**
   * Time-valued properties (P569, P570, P571): an ISO date (day precision), or a date with its
   * wikibase:timePrecision (7 century, 8 decade, 9 year, 11 day), or `unknown` (Wikidata's "unknown
   * value": a statement with no time value).
   */
  dates?: Record<string, DateValue | DateValue[]>;
  quantities?: Record<string, (Quantity & { rank?: Rank; qualifiers?: Record<string, string> })[]>;
  /** P18 Commons file name (or several: statements in this order, all of normal rank). */
  image?: string | string[];
  /** Wikipedia articles (language codes) and other sister-project links (Commons, Wikiquote, ...). */
  wikipedia?: string[];
  otherSitelinks?: number;
}

const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const rankIri: Record<Rank, string> = { preferred: 'wikibase:PreferredRank', normal: 'wikibase:NormalRank', deprecated: 'wikibase:DeprecatedRank' };
const dateLiteral = (iso: string) => `"${/^-?\d{4}-\d\d-\d\d$/.test(iso) ? `${iso}T00:00:00Z` : iso}"^^xsd:dateTime`;
const qualifierObject = (v: string) => (/^Q\d+$/.test(v) ? `wd:${v}` : dateLiteral(v));
const decimal = (n: number | string) => {
  const text = String(n);
  return `"${text.startsWith('-') ? text : `+${text}`}"^^xsd:decimal`;
};

/** Wikipedia language codes for generated sitelinks (real subdomains). */
export const WIKIPEDIAS = (
  'en de fr es it ja nl pl pt ru sv uk vi zh ar ca cs da fi he hu id ko no ro sr tr fa eo eu gl hr hy ka kk lt lv ms sk sl ' +
  'et bg el hi bn ta te th ur az be bs cy ga is la lb mk mn ne oc sq sw tl tt uz af am an as ast ba bar br ceb cv fy gd ' +
  'gu ht ia io jv kn ku ky li lmo mg ml mr my nds nn pa pms qu sa scn sco si so su tg wa war yi yo zu'
).split(' ');

/** One item in Turtle, statements and sitelinks included. */
export function itemTurtle(spec: ItemSpec): string {
  const q = spec.qid;
  const lines: string[] = [];
  const about: string[] = [`wd:${q} a wikibase:Item`];
  for (const [lang, text] of Object.entries(spec.labels ?? {})) {
    about.push(`rdfs:label "${esc(text)}"@${lang}`, `schema:name "${esc(text)}"@${lang}`);
  }
  let n = 0;
  /** A full statement node; `truthy` says whether its value also gets a wdt: triple. */
  const statement = (prop: string, simple: string, rank: Rank, qualifiers: Record<string, string> | undefined, value?: string) => {
    const node = `wds:${q}-${prop}-${++n}`;
    about.push(`p:${prop} ${node}`);
    const parts = [`${node} a wikibase:Statement`, `wikibase:rank ${rankIri[rank]}`, `ps:${prop} ${simple}`];
    if (value) parts.push(`psv:${prop} ${value}`);
    for (const [qp, qv] of Object.entries(qualifiers ?? {})) parts.push(`pq:${qp} ${qualifierObject(qv)}`);
    return parts;
  };
  const truthy = <T extends { rank?: Rank }>(all: T[]) => {
    const usable = all.filter((s) => (s.rank ?? 'normal') !== 'deprecated');
    const preferred = usable.filter((s) => s.rank === 'preferred');
    return new Set(preferred.length ? preferred : usable);
  };
  const statements: string[][] = [];
  for (const [prop, values] of Object.entries(spec.items ?? {})) {
    const all = values.map((v) => (typeof v === 'string' ? { value: v } : v));
    const best = truthy(all);
    for (const s of all) {
      const parts = statement(prop, `wd:${s.value}`, s.rank ?? 'normal', s.qualifiers);
      if (best.has(s)) {
        parts.push('a wikibase:BestRank');
        about.push(`wdt:${prop} wd:${s.value}`);
      }
      statements.push(parts);
    }
  }
  for (const [prop, given] of Object.entries(spec.dates ?? {})) {
    const entries = (Array.isArray(given) ? given : [given]).map((d) =>
      d === 'unknown'
        ? { unknown: true as const, rank: 'normal' as Rank }
        : typeof d === 'string'
          ? { date: d, precision: 11, rank: 'normal' as Rank }
          : { ...d, rank: d.rank ?? 'normal' },
    );
    const best = truthy(entries);
    for (const entry of entries) {
      const valueNode = `wdv:${q}-${prop}-time-${n + 1}`;
      // Unknown value: a blank simple value and no time value node, as the query service has it.
      const simple = 'unknown' in entry ? `wdv:${q}-${prop}-unknown-${n + 1}` : dateLiteral(entry.date);
      // "circa" is a P1480 (sourcing circumstances) qualifier with the item Q5727902, as Wikidata has it.
      const qualifiers = 'circa' in entry && entry.circa ? { P1480: 'Q5727902' } : undefined;
      const parts = statement(prop, simple, entry.rank, qualifiers, 'unknown' in entry ? undefined : valueNode);
      if (!('unknown' in entry)) {
        lines.push(`${valueNode} a wikibase:TimeValue ; wikibase:timeValue ${dateLiteral(entry.date)} ; wikibase:timePrecision "${entry.precision}"^^xsd:integer .`);
      }
      if (best.has(entry)) {
        parts.push('a wikibase:BestRank');
        about.push(`wdt:${prop} ${simple}`);
      }
      statements.push(parts);
    }
  }
  for (const [prop, values] of Object.entries(spec.quantities ?? {})) {
    const best = truthy(values);
    for (const s of values) {
      const valueNode = `wdv:${q}-${prop}-${n + 1}`;
      const parts = statement(prop, decimal(s.amount), s.rank ?? 'normal', s.qualifiers, valueNode);
      if (best.has(s)) {
        parts.push('a wikibase:BestRank');
        about.push(`wdt:${prop} ${decimal(s.amount)}`);
      }
      statements.push(parts);
      lines.push(`${valueNode} a wikibase:QuantityValue ; wikibase:quantityAmount ${decimal(s.amount)} ; wikibase:quantityUnit wd:${s.unit} .`);
    }
  }
  for (const image of typeof spec.image === 'string' ? [spec.image] : (spec.image ?? [])) {
    const file = `<http://commons.wikimedia.org/wiki/Special:FilePath/${encodeURIComponent(image.replace(/ /g, '_')).replace(/%2F/g, '/')}>`;
    statements.push([...statement('P18', file, 'normal', undefined), 'a wikibase:BestRank']);
    about.push(`wdt:P18 ${file}`);
  }
  const wikipedia = spec.wikipedia ?? [];
  about.push(`wikibase:sitelinks "${wikipedia.length + (spec.otherSitelinks ?? 0)}"^^xsd:integer`);
  for (const lang of wikipedia) {
    lines.push(
      `<https://${lang}.wikipedia.org/wiki/${q}> a schema:Article ; schema:about wd:${q} ; schema:inLanguage "${lang}" ; schema:isPartOf <https://${lang}.wikipedia.org/> .`,
    );
  }
  for (let i = 0; i < (spec.otherSitelinks ?? 0); i++) {
    const site = ['commons.wikimedia.org', 'en.wikiquote.org', 'fr.wikisource.org', 'de.wikivoyage.org'][i % 4]!;
    lines.push(`<https://${site}/wiki/${q}_${i}> a schema:Article ; schema:about wd:${q} ; schema:isPartOf <https://${site}/> .`);
  }
  return [about.join(' ;\n  ') + ' .', ...statements.map((s) => s.join(' ; ') + ' .'), ...lines].join('\n') + '\n';
}

/** The site nodes of sitelinks: which project each belongs to (Wikipedia or another). */
export function sitesTurtle(): string {
  return (
    [
      ...WIKIPEDIAS.map((l) => `<https://${l}.wikipedia.org/> wikibase:wikiGroup "wikipedia" .`),
      '<https://commons.wikimedia.org/> wikibase:wikiGroup "commons" .',
      '<https://en.wikiquote.org/> wikibase:wikiGroup "wikiquote" .',
      '<https://fr.wikisource.org/> wikibase:wikiGroup "wikisource" .',
      '<https://de.wikivoyage.org/> wikibase:wikiGroup "wikivoyage" .',
    ].join('\n') + '\n'
  );
}

/** A painter (human, occupation painter) with dates and optional movements. */
export function painter(spec: {
  qid: string;
  labels: Labels;
  born?: string;
  died?: DateValue | DateValue[];
  movements?: string[];
  occupation?: string[];
  human?: boolean;
}): ItemSpec {
  return {
    qid: spec.qid,
    labels: spec.labels,
    items: { P31: [spec.human === false ? 'Q16521' : 'Q5'], P106: spec.occupation ?? ['Q1028181'], ...(spec.movements ? { P135: spec.movements } : {}) },
    dates: { ...(spec.born ? { P569: spec.born } : {}), ...(spec.died ? { P570: spec.died } : {}) },
  };
}

/** A painting (P31 Q3305213) by `creator`, and by `coCreators` (with qualifiers such as P5102 "attribution"). */
export function painting(spec: {
  qid: string;
  creator: string | Statement<string>;
  coCreators?: (string | Statement<string>)[];
  labels?: Labels;
  image?: string | string[] | null;
  /** P571: an ISO day, or time values with their precision (7 century, 8 decade, 9 year) and circa. */
  inception?: DateValue | DateValue[];
  height?: (Quantity & { rank?: Rank; qualifiers?: Record<string, string> })[];
  width?: (Quantity & { rank?: Rank; qualifiers?: Record<string, string> })[];
  collections?: (string | Statement<string>)[];
  /** P276 location: a museum building, a city (with `pq:P582` for a former one). */
  locations?: (string | Statement<string>)[];
  movements?: string[];
  genres?: string[];
  depicts?: string[];
  wikipedia?: number;
  otherSitelinks?: number;
  instanceOf?: string;
}): ItemSpec {
  const items: Record<string, (string | Statement<string>)[]> = { P31: [spec.instanceOf ?? 'Q3305213'], P170: [spec.creator, ...(spec.coCreators ?? [])] };
  if (spec.collections?.length) items.P195 = spec.collections;
  if (spec.locations?.length) items.P276 = spec.locations;
  if (spec.movements?.length) items.P135 = spec.movements;
  if (spec.genres?.length) items.P136 = spec.genres;
  if (spec.depicts?.length) items.P180 = spec.depicts;
  return {
    qid: spec.qid,
    labels: spec.labels,
    items,
    dates: spec.inception ? { P571: spec.inception } : {},
    quantities: { ...(spec.height ? { P2048: spec.height } : {}), ...(spec.width ? { P2049: spec.width } : {}) },
    image: spec.image === null ? undefined : (spec.image ?? `${spec.qid} painting.jpg`),
    wikipedia: WIKIPEDIAS.slice(0, spec.wikipedia ?? 0),
    otherSitelinks: spec.otherSitelinks,
  };
}

/** A whole graph: prefixes, sites, then the items. */
export function graphTurtle(items: ItemSpec[]): string {
  return TURTLE_PREFIXES + '\n' + sitesTurtle() + '\n' + items.map(itemTurtle).join('\n');
}
