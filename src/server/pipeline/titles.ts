import 'server-only';
import { slugify } from './slug';

const museumWords =
  /\b(museum|museo|musee|museu|muzeum|gallery|galleria|galerie|galeria|louvre|prado|uffizi|rijksmuseum|hermitage|ermitage|pinakothek|kunsthalle|kunsthaus|collection|collezione|sammlung|coleccion|palazzo|national ?gallery|moma|getty|orsay|belvedere|mauritshuis|tate)\b/;

const fold = (text: string) => slugify(text, 500).replace(/-/g, ' ');

/**
 * Whether a part of a parenthesis is the creator's name, whole or its ending run ("Van Gogh",
 * "Vincent van Gogh", "Rembrandt"): never a word inside it or around it ("Steen's house" for Jan
 * Steen stays, "Art" for Art Smith too: a first name alone names nobody).
 */
function namesCreator(part: string, creatorNames: string[]): boolean {
  const words = fold(part);
  if (!words) return false;
  return creatorNames.some((name) => {
    const full = fold(name);
    return Boolean(full) && (full === words || full.endsWith(` ${words}`));
  });
}

/**
 * Whether a part is a museum's name: one of the painting's museums, whole or before its city
 * ("National Gallery" for "National Gallery, London"), or a word that only names museums ("Louvre",
 * "Uffizi"). Never a word inside a name: with "National Gallery of Art" among the museums,
 * "Allegory (Art)" keeps its "(Art)".
 */
function namesMuseum(part: string, museumNames: string[]): boolean {
  const words = fold(part);
  if (!words) return false;
  return museumWords.test(words) || museumNames.some((name) => fold(name) === words || fold(name.split(',')[0]!) === words);
}

/**
 * Takes off the disambiguation suffixes Wikidata labels carry: a trailing parenthesis each of whose
 * comma-separated parts names the creator or a museum. "Sunflowers (Van Gogh, National Gallery)"
 * → "Sunflowers"; "Self-Portrait (with Bandaged Ear)" stays as it is.
 */
export function stripDisambiguation(title: string, context: { creatorNames: string[]; museumNames?: string[] }): string {
  let current = title.trim();
  for (;;) {
    const match = current.match(/^(.*\S)\s*[(（]([^()（）]+)[)）]$/);
    if (!match) return current;
    const parts = match[2]!
      .split(/[,;、，]/)
      .map((p) => p.trim())
      .filter(Boolean);
    const strip = parts.length > 0 && parts.every((p) => namesCreator(p, context.creatorNames) || namesMuseum(p, context.museumNames ?? []));
    if (!strip) return current;
    current = match[1]!.trim();
  }
}
