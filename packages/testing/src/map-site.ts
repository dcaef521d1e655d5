/**
 * A local site for map/discovery tests and benchmarks: robots.txt naming a sitemap index whose
 * children are gzipped files (served as downloads, so only the magic bytes say "gzip") plus a
 * plain one; a start page whose links overlap the sitemap in different spellings; a hub page
 * linking to pages no sitemap lists (found only by a shallow crawl); robots-disallowed pages; a
 * search playground. `sitemapUrls` generated pages (/p/:n) can go to 50k+.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { listenLocal } from './local-server';

export interface MapSiteOptions {
  /** Generated URLs /p/0 … /p/(n-1) listed in the gzipped sitemaps (default 30). */
  sitemapUrls?: number;
  /** Number of gzipped child sitemaps they are split into (default 3). */
  sitemapFiles?: number;
  /** false: robots.txt names no sitemap, so /sitemap.xml must be guessed (default true). */
  robotsSitemaps?: boolean;
  /** true: one child sitemap never answers (tests the time budget). */
  hangingSitemap?: boolean;
}

export interface MapSite {
  url: string;
  hits(path: string): number;
  accessLog: string[];
  close(): Promise<void>;
}

/** Paths every map of this site must find (besides /p/*), relative to the site root. */
export const MAP_SITE_PAGES = {
  startLinks: ['/about', '/blog', '/products?b=2&a=1', '/hub', '/search', '/archive'],
  sitemapDocs: ['/docs/getting-started', '/docs/api', '/blog/search-tips', '/blog/research-notes'],
  shallowOnly: ['/hub/deep-1', '/hub/deep-2'],
  disallowed: ['/private/secret', '/private/hidden', '/private/also'],
} as const;

const page = (title: string, links: Array<[string, string]> = [], description?: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title>${
    description ? `<meta name="description" content="${description}">` : ''
  }</head><body><main><h1>${title}</h1><p>Fixture page.</p><ul>${links
    .map(([href, text]) => `<li><a href="${href}">${text}</a></li>`)
    .join('')}</ul></main></body></html>`;

const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((u) => `<url><loc>${u}</loc><lastmod>2024-05-01</lastmod></url>`)
    .join('\n')}\n</urlset>\n`;

const sitemapIndex = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((u) => `<sitemap><loc>${u}</loc></sitemap>`)
    .join('\n')}\n</sitemapindex>\n`;

export async function startMapSite(opts: MapSiteOptions = {}): Promise<MapSite> {
  const total = opts.sitemapUrls ?? 30;
  const files = Math.max(1, opts.sitemapFiles ?? 3);
  const counts = new Map<string, number>();
  const accessLog: string[] = [];
  let base = '';
  const gzCache = new Map<number, Buffer>();

  const gzFile = (k: number): Buffer => {
    let buf = gzCache.get(k);
    if (!buf) {
      const per = Math.ceil(total / files);
      const urls: string[] = [];
      for (let i = k * per; i < Math.min(total, (k + 1) * per); i++) urls.push(`${base}/p/${i}`);
      buf = gzipSync(urlset(urls));
      gzCache.set(k, buf);
    }
    return buf;
  };

  const send = (res: ServerResponse, status: number, body: string | Buffer, type: string) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const html = (res: ServerResponse, body: string, status = 200) =>
    send(res, status, body, 'text/html; charset=utf-8');

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    accessLog.push(`${req.method ?? 'GET'} ${req.url ?? '/'}`);

    const gz = /^\/sitemaps\/pages-(\d+)\.xml\.gz$/.exec(path);
    if (gz) {
      const k = Number(gz[1]);
      if (k >= files) return html(res, page('Not found'), 404);
      if (opts.hangingSitemap && k === 0) return; // never answers
      return send(res, 200, gzFile(k), 'application/octet-stream');
    }
    if (/^\/p\/\d+$/.test(path)) return html(res, page(`Generated ${path}`));

    switch (path) {
      case '/robots.txt':
        return send(
          res,
          200,
          `User-agent: *\nDisallow: /private/\n\nUser-agent: OtherBot\nDisallow: /\n${
            opts.robotsSitemaps === false ? '' : `\nSitemap: ${base}/sitemap-index.xml\n`
          }`,
          'text/plain; charset=utf-8',
        );
      case '/sitemap-index.xml':
        return send(
          res,
          200,
          sitemapIndex([
            ...Array.from({ length: files }, (_, k) => `${base}/sitemaps/pages-${k}.xml.gz`),
            `${base}/sitemaps/docs.xml`,
          ]),
          'application/xml',
        );
      case '/sitemap.xml':
        // Only reached when robots.txt names no sitemap (the guessed location).
        return send(
          res,
          200,
          urlset([`${base}/guessed/from-sitemap-xml`, `${base}/about#team`]),
          'application/xml',
        );
      case '/sitemaps/docs.xml':
        return send(
          res,
          200,
          urlset([
            `${base}/docs/getting-started`,
            `${base}/docs/api?utm_source=newsletter`,
            `${base}/docs/api#overview`,
            `${base}/private/secret`,
            'https://other.example/not-this-site',
            `${base}/blog/search-tips`,
            `${base}/blog/research-notes`,
          ]),
          'application/xml',
        );
      case '/':
        return html(
          res,
          page(
            'Map fixture home',
            [
              ['/about', 'About us'],
              ['/about?utm_campaign=spring', 'About (tracked)'],
              ['/blog', 'Blog'],
              ['/blog/search-tips#intro', 'Tips'],
              ['/docs/getting-started#install', 'Docs'],
              ['/private/hidden', 'Hidden'],
              ['/products?b=2&a=1', 'Products'],
              ['/hub', 'Hub'],
              ['/search', 'Find'],
              ['/archive', 'Search our archive'],
              ['mailto:team@example.com', 'Mail'],
              ['http://other.invalid/elsewhere', 'Elsewhere'],
            ],
            'The home page of the map fixture',
          ),
        );
      case '/hub':
        return html(
          res,
          page('Hub', [
            ['/hub/deep-1', 'Deep one'],
            ['/hub/deep-2?utm_medium=hub', 'Deep two'],
            ['/private/also', 'Also private'],
            ['/', 'Home'],
          ]),
        );
      case '/slow-start':
        return; // never answers: a map of it must fail with a timeout, not succeed empty
      case '/about':
      case '/blog':
      case '/products':
      case '/search':
      case '/archive':
      case '/hub/deep-1':
      case '/hub/deep-2':
      case '/docs/getting-started':
      case '/docs/api':
      case '/blog/search-tips':
      case '/blog/research-notes':
      case '/guessed/from-sitemap-xml':
        return html(res, page(`Page ${path}`));
      default:
        return html(res, page('Not found'), 404);
    }
  };

  const listening = await listenLocal(createServer(handle));
  base = listening.url;
  return { url: listening.url, hits: (p) => counts.get(p) ?? 0, accessLog, close: listening.close };
}
