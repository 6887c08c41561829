/**
 * Structured data for search engines. `<` is escaped so no text from the catalog can close the
 * script element; browsers never execute this type, so it needs no CSP allowance.
 */
export function JsonLd({ data }: { data: Record<string, unknown> | Record<string, unknown>[] }) {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}
