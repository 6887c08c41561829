import { notFound } from 'next/navigation';

// Any path under a language that no page claims renders the localized `[locale]/not-found.tsx`
// (Next would otherwise fall back to the root, English-only one). More specific routes win.
// Rendered per request: any address can be asked for, and none of them should fill the page cache.
export const dynamic = 'force-dynamic';

export default function UnknownPage() {
  notFound();
}
