import 'server-only';

/**
 * Reading the public catalog. Only published rows are ever read; every list is one round trip
 * for its page (plus one for its total where no stored count answers it), whatever its length.
 * The rooms: the lists (lists.ts: the grid and its search, cards by slug, artists, browse pages),
 * the detail pages (details.ts), the search's "did you mean" (did-you-mean.ts) and suggestions
 * while typing (suggestions.ts), and the cards and SQL helpers they share (cards.ts). Callers
 * import from here.
 */
export { artistDetail, artworkDetail, taxonDetail } from './details';
export { FEW_RESULTS } from './did-you-mean';
export { artworksBySlugs, listArtists, listArtworks, listTaxa } from './lists';
export { searchSuggestions } from './suggestions';
