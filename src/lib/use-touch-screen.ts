'use client';

import { useSyncExternalStore } from 'react';

/** A screen without hover is worked with a finger: it is told "tap", not "click". */
const touchQuery = '(hover: none)';

function subscribe(onChange: () => void) {
  const media = window.matchMedia(touchQuery);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/**
 * Whether the shopper uses a touch screen. The server cannot know, so the first render says no;
 * what a label shows is switched by the same media query in CSS, so nothing visible moves, and an
 * accessible name built from this matches the visible words once the page has hydrated.
 */
export function useTouchScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(touchQuery).matches,
    () => false,
  );
}
