import 'server-only';
import { createHash } from 'node:crypto';

/**
 * A quiet stand-in for a painting whose picture cannot be fetched: a small landscape in one of a
 * few painterly palettes, chosen from the file name so the same work always looks the same and a
 * grid of them does not look broken. No text, so it needs no translation.
 */
const palettes = [
  { sky: ['#c9d6df', '#f2e6d0'], land: ['#7d8f69', '#4e6151'], sun: '#f4d58d' },
  { sky: ['#2b3a67', '#7c8bb5'], land: ['#1f2a44', '#3c4f76'], sun: '#f2e8c9' },
  { sky: ['#f3c9a8', '#f7e7ce'], land: ['#b5835a', '#7a5138'], sun: '#fff4e0' },
  { sky: ['#a8c5c1', '#e4efe9'], land: ['#5d7b6f', '#2f4f4f'], sun: '#f6f1d3' },
  { sky: ['#d8c3a5', '#efe6d8'], land: ['#8e8d8a', '#5b5a58'], sun: '#e98074' },
  { sky: ['#9fb7d4', '#dfe8f1'], land: ['#c2a878', '#8a6f4d'], sun: '#fdf6e3' },
] as const;

export function placeholderSvg(seed: string, width: number): string {
  const hash = createHash('sha256').update(seed).digest();
  const p = palettes[hash[0]! % palettes.length]!;
  const at = (i: number, lo: number, hi: number) => lo + (hash[i]! / 255) * (hi - lo);
  const horizon = at(1, 250, 330);
  const sunX = at(2, 80, 320);
  const sunY = at(3, 80, horizon - 70);
  const hill = (i: number, base: number) =>
    `M0 ${base} C ${at(i, 60, 140)} ${base - at(i + 1, 20, 90)}, ${at(i + 2, 220, 300)} ${base - at(i + 3, 0, 80)}, 400 ${base - at(i + 4, 10, 60)} L400 500 L0 500 Z`;
  const height = Math.round((width * 5) / 4);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 400 500" preserveAspectRatio="xMidYMid slice">
<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.sky[0]}"/><stop offset="1" stop-color="${p.sky[1]}"/></linearGradient>
<linearGradient id="l" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.land[0]}"/><stop offset="1" stop-color="${p.land[1]}"/></linearGradient></defs>
<rect width="400" height="500" fill="url(#s)"/>
<circle cx="${sunX.toFixed(0)}" cy="${sunY.toFixed(0)}" r="${at(5, 22, 42).toFixed(0)}" fill="${p.sun}" opacity="0.85"/>
<path d="${hill(6, horizon)}" fill="${p.land[0]}" opacity="0.7"/>
<path d="${hill(11, horizon + 60)}" fill="url(#l)"/>
</svg>`;
}
