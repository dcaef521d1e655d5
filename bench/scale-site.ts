/**
 * A generated site of `pages` pages for the scale benches: each page a title, three short
 * paragraphs and `links` links into a deterministic graph (the pages 2i+1 and 2i+2, so a crawl
 * from page 0 reaches every page within log2(pages) hops, plus pseudo-random pages of the whole
 * site, as navigation and related links would). No sitemap, no robots.txt (404). Built per
 * request from the page number: serving a million pages costs no memory.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const SCALE_PREFIX = '/p/';

const WORDS = (
  'crawl frontier page link graph index store queue worker document markdown scale slice ' +
  'memory rate bytes table redis postgres batch monitor schedule interval spread budget'
).split(' ');

/** A 32-bit mix of (i, j): deterministic, spread over the whole site. */
function mix(i: number, j: number): number {
  let h = (Math.imul(i, 0x9e3779b1) ^ Math.imul(j + 1, 0x85ebca6b)) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d) >>> 0;
  h ^= h >>> 12;
  return h >>> 0;
}

function paragraph(i: number, p: number): string {
  const words: string[] = [];
  for (let w = 0; w < 40; w++) words.push(WORDS[mix(i * 7 + p, w) % WORDS.length] as string);
  return `<p>Page ${i}, part ${p}: ${words.join(' ')}.</p>`;
}

/** The page numbers page `i` links to (children first, then the spread links). */
export function scaleLinks(i: number, pages: number, links: number): number[] {
  const out: number[] = [];
  for (const c of [2 * i + 1, 2 * i + 2]) if (c < pages) out.push(c);
  for (let j = 0; out.length < links && j < links * 2; j++) out.push(mix(i, j) % pages);
  return out;
}

export function scalePage(i: number, pages: number, links: number): string {
  const anchors = scaleLinks(i, pages, links)
    .map((n) => `<li><a href="${SCALE_PREFIX}${n}">Page ${n}</a></li>`)
    .join('');
  return (
    `<!doctype html><html><head><title>Page ${i}</title></head><body><main><article>` +
    `<h1>Page ${i}</h1>${paragraph(i, 0)}${paragraph(i, 1)}${paragraph(i, 2)}` +
    `</article><nav><ul>${anchors}</ul></nav></main></body></html>`
  );
}

export interface ScaleSite {
  url: string;
  /** Pages served so far (every request of a page path, repeats included). */
  served(): number;
  close(): Promise<void>;
}

export async function startScaleSite(pages: number, links: number): Promise<ScaleSite> {
  let served = 0;
  const server = http.createServer((req, res) => {
    const m = /^\/p\/(\d+)$/.exec(req.url ?? '');
    const i = m ? Number(m[1]) : -1;
    if (i < 0 || i >= pages) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    served++;
    const body = scalePage(i, pages, links);
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
