import type { Locale } from '@/shared/locales';

/**
 * What shoppers type into the search box, as the benchmark's suggestions row asks it (prefixes and
 * typos in three languages, short Japanese). `npm run bench` and scripts/catalog-plans.ts share it,
 * so the database times the plans report are those of the requests the bench sends.
 */
export const typedSuggestions: [Locale, string][] = [
  ['en', 'riv'],
  ['en', 'gard'],
  ['en', 'portr'],
  ['en', 'moreu'],
  ['fr', 'jard'],
  ['fr', 'égli'],
  ['fr', 'rivere'],
  ['ja', '庭'],
  ['ja', 'ひま'],
  ['de', 'garten'],
];
