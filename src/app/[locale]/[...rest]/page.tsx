import { notFound } from 'next/navigation';

// Any path under a language that no page claims renders the localized `[locale]/not-found.tsx`
// (Next would otherwise fall back to the root, English-only one). More specific routes win.
export default function UnknownPage() {
  notFound();
}
