import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { userAgent } from '@/server/integrations/http';
import { sparqlClient, wikidataSource } from '@/server/integrations/wikidata';
import { probe, probeTable } from '@/server/pipeline/probe';
import { imageWidths } from '@/shared/images';
import { curatedWorks } from '../../prisma/seed/curated';
import { startCommonsStandIn } from '../support/commons';
import { startWikidataServer } from '../support/wikidata';
import { graphTurtle, type ItemSpec } from '../support/wikidata-graph';

/**
 * Issue #39 item 7, the day-one probe: against the stand-ins (the fixtures' painters, the 31
 * curated works as Wikidata labels them, Commons' standard widths) it says go; a curated id whose
 * label is another work's, or Commons refusing, says no-go, and the command exits 1.
 */

let wdqs: Awaited<ReturnType<typeof startWikidataServer>>;
let commons: Awaited<ReturnType<typeof startCommonsStandIn>>;
const curated = curatedWorks.map((w) => ({ qid: w.wikidataId, titles: Object.values(w.titles).filter((t): t is string => Boolean(t)) }));
const contact = 'probe-test@example.com';

beforeAll(async () => {
  // The curated works as items with their English labels (Q45585, The Starry Night, is in the fixtures already).
  const items: ItemSpec[] = curatedWorks.filter((w) => w.wikidataId !== 'Q45585').map((w) => ({ qid: w.wikidataId, labels: { en: w.titles.en } }));
  [wdqs, commons] = await Promise.all([startWikidataServer({ turtle: [graphTurtle(items)] }), startCommonsStandIn()]);
});
afterAll(async () => Promise.all([wdqs.close(), commons.close()]));

const settings = (overrides: Partial<Parameters<typeof probe>[0]> = {}) => {
  const sparql = sparqlClient({ url: wdqs.url, userAgent: userAgent(contact), retry: { sleep: async () => undefined } });
  return { sparql, source: wikidataSource(sparql), curated, image: { sourceUrl: commons.url, file: curatedWorks[0]!.imageFile, userAgent: userAgent(contact) }, ...overrides };
};

describe('the day-one probe', () => {
  test('go against endpoints that answer as the pipeline needs: the list, its largest painters, the curated ids, every width', async () => {
    commons.requests.length = 0;
    const result = await probe(settings());
    expect(result.rows.filter((r) => !r.ok)).toEqual([]);
    expect(result.go).toBe(true);
    expect(result.rows.map((r) => r.check)).toEqual([
      // the two most recent slices of death dates, and the largest painters found there
      'painter list (died 1910–1920, died 1920–1926)',
      'paintings of Q990200',
      'paintings of Q990100',
      'curated works (31)',
      ...imageWidths.map((w) => `thumbnail ${w} px`),
    ]);
    expect(commons.requests.map((r) => r.width)).toEqual([...imageWidths]);
    expect(commons.requests.every((r) => r.userAgent === userAgent(contact))).toBe(true);
    expect(probeTable(result).split('\n').at(-1)).toBe('GO: the pipeline may run against these endpoints.');
  });

  test('no-go when a curated id names another work, or Commons refuses', async () => {
    const wrong = curated.map((c) => (c.qid === 'Q12418' ? { ...c, titles: ['The Night Watch'] } : c));
    commons.control.answer = 'error';
    try {
      const result = await probe(settings({ curated: wrong }));
      expect(result.go).toBe(false);
      expect(result.rows.find((r) => r.check.startsWith('curated'))).toMatchObject({ ok: false, detail: expect.stringContaining('Q12418 (The Night Watch)') });
      expect(result.rows.filter((r) => r.check.startsWith('thumbnail')).every((r) => !r.ok)).toBe(true);
      expect(probeTable(result)).toMatch(/^NO-GO {2}curated works/m);
    } finally {
      commons.control.answer = 'image';
    }
  });

  test('npm run catalog -- probe exits 0 on go and 1 on no-go', async () => {
    // Not spawnSync: the stand-ins answer from this process, which must keep running meanwhile.
    const run = (imageSource: string) =>
      new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn('npm', ['run', '--silent', 'catalog', '--', 'probe'], {
          env: { ...process.env, WIKIDATA_SPARQL_URL: wdqs.url, WIKIDATA_CONTACT: contact, IMAGE_SOURCE_URL: imageSource, DATABASE_URL: '' },
        });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.on('close', (status) => resolve({ status, stdout }));
      });
    const go = await run(commons.url);
    expect(go.status, go.stdout).toBe(0);
    expect(go.stdout).toContain('GO: the pipeline may run against these endpoints.');
    const noGo = await run('http://127.0.0.1:9/wiki/Special:FilePath/');
    expect(noGo.status, noGo.stdout).toBe(1);
    expect(noGo.stdout).toContain('NO-GO');
  }, 240_000);
});
