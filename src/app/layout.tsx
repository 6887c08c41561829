import type { ReactNode } from 'react';

// The real document (<html lang>, header, footer) is `[locale]/layout.tsx`. This pass-through root
// exists so `app/not-found.tsx` can answer paths outside any locale (`/xx/...`) with a 404 page.
export default function RootLayout({ children }: { children: ReactNode }) {
  return children;
}
