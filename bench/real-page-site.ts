/**
 * A crawlable site of real pages: `pages` URLs (`/bench-page/<n>`), page n serving the HTML of
 * article n mod 181 of `shared/bench/article-extraction` (real news/blog pages, 174 KB on average)
 * with the fixture site's link scheme added before `</body>`: previous, next and three related
 * pages. The fixture site's pages are ~3 KB of generated markup, so per-page overheads dominate
 * there; real pages are where a crawl of the web spends its time (parse, conversion, links,
 * storage). Also serves `/robots.txt` (naming the sitemap) and `/sitemap.xml` (every page), like
 * the fixture site. The pages' own links point elsewhere (their sites, or paths that are not
 * `/bench-page/`), so an include pattern of `^/bench-page/` keeps both crawlers on these pages.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startArticleSite } from './article-site';

export const REAL_PAGE_PREFIX = '/bench-page/';

export interface RealPageSite {
  url: string;
  /** HTML bytes served per page, on average. */
  meanBytes: number;
  close(): Promise<void>;
}

/** Absolute links: a page's own `<base href>` (some name their original site) must not move them. */
function linkBlock(base: string, n: number, pages: number): string {
  const links: string[] = [];
  if (n > 0) links.push(`<a rel="prev" href="${base}${REAL_PAGE_PREFIX}${n - 1}">Previous article</a>`);
  if (n < pages - 1) links.push(`<a rel="next" href="${base}${REAL_PAGE_PREFIX}${n + 1}">Next article</a>`);
  const related = [7, 13, 29]
    .map((k) => (n + k) % pages)
    .filter((k) => k !== n)
    .map((k) => `<li><a href="${base}${REAL_PAGE_PREFIX}${k}">Related article ${k}</a></li>`)
    .join('');
  return `<nav class="pager">${links.join(' · ')}</nav><aside class="related"><ul>${related}</ul></aside>`;
}

/** The 181 article pages' HTML as UTF-8 (their declared charsets decoded), in file-name order. */
export async function readArticleHtml(): Promise<string[]> {
  const articles = await startArticleSite();
  const bodies: string[] = [];
  try {
    for (const u of articles.urls) bodies.push(await (await fetch(u)).text());
  } finally {
    await articles.close();
  }
  return bodies;
}

export async function startRealPageSite(pages: number): Promise<RealPageSite> {
  const bodies = await readArticleHtml();
  // Each article split once where the link block goes (before `</body>`, else at the end).
  const parts = bodies.map((html) => {
    const at = html.toLowerCase().lastIndexOf('</body>');
    const cut = at < 0 ? html.length : at;
    return [Buffer.from(html.slice(0, cut), 'utf8'), Buffer.from(html.slice(cut), 'utf8')] as const;
  });
  const page = (n: number): Buffer[] => {
    const [head, tail] = parts[n % parts.length] ?? [Buffer.alloc(0), Buffer.alloc(0)];
    return [head, Buffer.from(linkBlock(base, n, pages), 'utf8'), tail];
  };
  let base = '';
  const server = createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0] ?? '/';
    const send = (status: number, type: string, body: string | Buffer[]) => {
      const bufs = typeof body === 'string' ? [Buffer.from(body, 'utf8')] : body;
      const length = bufs.reduce((s, b) => s + b.length, 0);
      res.writeHead(status, { 'content-type': type, 'content-length': length });
      for (const b of bufs) res.write(b);
      res.end();
    };
    if (p === '/robots.txt')
      return send(200, 'text/plain', `User-agent: *\nAllow: /\n\nSitemap: ${base}/sitemap.xml\n`);
    if (p === '/sitemap.xml') {
      const locs = Array.from(
        { length: pages },
        (_, i) => `  <url><loc>${base}${REAL_PAGE_PREFIX}${i}</loc></url>`,
      );
      return send(
        200,
        'application/xml',
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.join('\n')}\n</urlset>\n`,
      );
    }
    const n = p.startsWith(REAL_PAGE_PREFIX) ? Number(p.slice(REAL_PAGE_PREFIX.length)) : Number.NaN;
    if (!Number.isInteger(n) || n < 0 || n >= pages) return send(404, 'text/plain', 'not found');
    send(200, 'text/html; charset=utf-8', page(n));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const meanBytes = bodies.reduce((s, b) => s + Buffer.byteLength(b, 'utf8'), 0) / Math.max(1, bodies.length);
  return {
    url: base,
    meanBytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
