import http from 'node:http';

/**
 * What a page weighs as a shopper's browser receives it: its HTML, and the JavaScript its first
 * load runs (every `<script src>` the HTML names: Next's and React's runtime, the page's chunks and
 * its client islands), each as sent with `Accept-Encoding: gzip` and as it is unpacked. Script a
 * page loads later (an island's code fetched on use) is not first-load and not counted.
 */
export interface PageWeight {
  html: { raw: number; gzip: number };
  js: { raw: number; gzip: number; files: number };
}

/** The bytes of `url` as sent (`sent`, asked with `accept-encoding`) and unpacked (`raw`). */
function fetchBoth(url: string): Promise<{ sent: number; raw: Buffer }> {
  const get = (encoding: string) =>
    new Promise<Buffer>((resolve, reject) => {
      http
        .get(url, { headers: { 'accept-encoding': encoding } }, (response) => {
          if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(Buffer.concat(chunks)));
          response.on('error', reject);
        })
        .on('error', reject);
    });
  return Promise.all([get('gzip'), get('identity')]).then(([sent, raw]) => ({ sent: sent.byteLength, raw }));
}

export async function pageWeight(url: string): Promise<PageWeight> {
  const page = await fetchBoth(url);
  const html = page.raw.toString('utf8');
  // Script elements, and scripts preloaded for the first load (Next names its chunks both ways).
  const named = [...html.matchAll(/<script[^>]+src="([^"]+\.js[^"]*)"/g), ...html.matchAll(/<link[^>]+as="script"[^>]+href="([^"]+\.js[^"]*)"/g)];
  const scripts = [...new Set(named.map((match) => new URL(match[1]!.replaceAll('&amp;', '&'), url).href))];
  const weights = await Promise.all(scripts.map(fetchBoth));
  return {
    html: { raw: page.raw.byteLength, gzip: page.sent },
    js: { raw: weights.reduce((n, w) => n + w.raw.byteLength, 0), gzip: weights.reduce((n, w) => n + w.sent, 0), files: scripts.length },
  };
}
