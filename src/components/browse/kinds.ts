import { taxonKinds, type TaxonKindPlural } from '@/shared/catalog';

/** Whether an address segment names a kind of browse page (`/museums`), rather than an unknown path. */
export const isTaxonKind = (kind: string): kind is TaxonKindPlural => (taxonKinds as readonly string[]).includes(kind);

/** The other kinds, to move sideways from one index to the next. */
export const otherKinds = (kind: TaxonKindPlural) => taxonKinds.filter((other) => other !== kind);
