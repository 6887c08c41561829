import { Link } from '@/i18n/navigation';
import type { TaxonKindPlural } from '@/shared/catalog';
import { pagePath } from '@/shared/paths';

interface Props {
  kind: TaxonKindPlural;
  taxon: { slug: string; name: string; hasPage: boolean };
  /** Given to the link, and to the text in its place. */
  className?: string;
  /** Added to `className` for the text: a chip that is not a link looks it. */
  textClassName?: string;
}

/**
 * A browse page's name (a museum, a movement…): a link to its page, or plain text while it has
 * fewer than 3 published works and so no page yet, never a link to a 404 (issue 17).
 */
export function TaxonName({ kind, taxon, className, textClassName }: Props) {
  if (taxon.hasPage) {
    return (
      <Link className={className} href={pagePath.taxon(kind, taxon.slug)}>
        {taxon.name}
      </Link>
    );
  }
  return className ? <span className={[className, textClassName].filter(Boolean).join(' ')}>{taxon.name}</span> : taxon.name;
}
