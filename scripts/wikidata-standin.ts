/**
 * `node --import tsx scripts/wikidata-standin.ts`: the SPARQL stand-in of the tests (Oxigraph over
 * the Wikidata-shaped graphs of tests/fixtures/wikidata) on 127.0.0.1 until Ctrl-C, to try the
 * pipeline end to end offline (another endpoint needs no WIKIDATA_CONTACT):
 *
 *   WIKIDATA_SPARQL_URL=<printed address> npm run catalog -- ingest
 */
import { startWikidataServer } from '../tests/support/wikidata';

const server = await startWikidataServer();
console.log(`Wikidata SPARQL stand-in (Oxigraph): ${server.url}`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
