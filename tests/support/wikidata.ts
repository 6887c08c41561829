import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const folder = path.join(path.dirname(new URL(import.meta.url).pathname), '../fixtures/wikidata');
export interface SparqlResults {
  head: unknown;
  results: { bindings: Record<string, { value: string }>[] };
}
type Kind = 'painters' | 'paintings' | 'labels';
const load = (name: string) => JSON.parse(readFileSync(path.join(folder, `${name}.json`), 'utf8')) as SparqlResults;

/**
 * A real HTTP server on 127.0.0.1 that answers SPARQL queries like query.wikidata.org, from the
 * recorded results in tests/fixtures/wikidata: the query's `#TOOL:` line names the file, a
 * `VALUES ?x { wd:Q… }` keeps the rows about those items, `LIMIT`/`OFFSET` page them.
 * `recorded` replaces a file's results (the benchmark's generated catalog).
 * `failures` answers the next requests with these statuses (and a Retry-After of 1 second).
 */
export async function startWikidataServer(recorded: Partial<Record<Kind, SparqlResults>> = {}) {
  const requests: { query: string; userAgent: string | undefined; method: string }[] = [];
  const control = { failures: [] as number[], retryAfter: '1' };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const query = form.get('query') ?? url.searchParams.get('query') ?? '';
      requests.push({ query, userAgent: req.headers['user-agent'], method: req.method ?? '' });
      const failure = control.failures.shift();
      if (failure) return res.writeHead(failure, { 'retry-after': control.retryAfter, 'content-type': 'text/plain' }).end('Too Many Requests');
      const kind = query.match(/#TOOL:[^\n]*\((painters|paintings|labels)\)/)?.[1];
      if (!kind) return res.writeHead(400, { 'content-type': 'text/plain' }).end('unknown query');
      const data = recorded[kind as Kind] ?? load(kind);
      let rows = data.results.bindings;
      const values = query.match(/VALUES \?(\w+) \{([^}]*)\}/);
      if (values) {
        const wanted = new Set([...values[2]!.matchAll(/wd:(Q\d+)/g)].map((m) => m[1]));
        rows = rows.filter((r) => wanted.has(r[values[1]!]?.value.split('/').at(-1)));
      }
      const offset = Number(query.match(/OFFSET (\d+)/)?.[1] ?? 0);
      const limit = Number(query.match(/LIMIT (\d+)/)?.[1] ?? rows.length);
      res.writeHead(200, { 'content-type': 'application/sparql-results+json' }).end(JSON.stringify({ head: data.head, results: { bindings: rows.slice(offset, offset + limit) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`,
    requests,
    control,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
