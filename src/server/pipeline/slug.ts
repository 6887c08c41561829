import 'server-only';
import { isSlug } from '@/server/catalog/text';

const special: Record<string, string> = { ß: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', ł: 'l', Ł: 'l', đ: 'd', Đ: 'd', þ: 'th', ð: 'd', ı: 'i' };

/** Lower-case ASCII words joined by hyphens, or '' when nothing Latin is left (a Japanese title). */
export function slugify(text: string, maxLength = 80): string {
  const folded = text
    .replace(/[ßæÆœŒøØłŁđĐþðı]/g, (c) => special[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (folded.length <= maxLength) return folded;
  const cut = folded.slice(0, maxLength + 1);
  const atWord = cut.lastIndexOf('-');
  return (atWord > maxLength / 2 ? cut.slice(0, atWord) : folded.slice(0, maxLength)).replace(/-+$/g, '');
}

/**
 * The first of the candidates (then the last one numbered -2, -3, ...) that is a slug and not taken.
 * `taken` holds every slug in use that could collide, and receives the chosen one.
 */
export function uniqueSlug(candidates: string[], taken: Set<string>): string {
  const usable = candidates.filter((c) => c && isSlug(c));
  for (const candidate of usable) {
    if (!taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
  const last = usable.at(-1) ?? 'untitled';
  for (let n = 2; ; n++) {
    const candidate = `${last.slice(0, 112).replace(/-+$/, '')}-${n}`;
    if (!taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
}

/** Slugs joined by a hyphen, cut to fit the 120-character column (never ending in a hyphen). */
export const joinSlug = (...parts: string[]) => parts.filter(Boolean).join('-').slice(0, 118).replace(/-+$/, '');
