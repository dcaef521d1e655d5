/**
 * A static host that is strict about trailing slashes, like object-store website endpoints and
 * many static-site hosts: a directory exists only as `/dir/`, a file only without the slash; the
 * other spelling is a 404. Links are written relative, with fragments and tracking parameters, and
 * one page redirects to another, so a crawler that rewrites URLs (or fetches a page twice) shows.
 *
 *   /docs/          links: guide/  api  guide/#install  guide/?utm_source=nav  moved  ../about/
 *   /docs/guide/    links: ../api  ./  /docs/
 *   /docs/api       links: /docs/
 *   /docs/moved     301 -> /docs/guide/
 *   /docs/changelog listed only in the sitemap (when asked)
 *   /docs/deep/a/, /docs/deep/a/b   deep pages, listed only in the sitemap (when asked)
 *   /about/         a page outside /docs/
 *   /blocked/ 403, /error/ 500, /hang/ never answers, /file.pdf a PDF: failing start pages
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocal } from './local-server';

export interface StrictSlashSiteOptions {
  /** Paths the sitemap lists (robots.txt names it); none: no robots.txt, no sitemap (404s). */
  sitemapPaths?: string[];
}

export interface StrictSlashSite {
  url: string;
  /** Every request's path + query, in arrival order. */
  requests: string[];
  /** Requests the site answered 404. */
  notFound: string[];
  close(): Promise<void>;
}

const page = (title: string, links: string[]) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1><p>${title} is a page of the strict fixture site, with enough words to be content.</p><ul>${links
    .map((href) => `<li><a href="${href}">${href}</a></li>`)
    .join('')}</ul></main></body></html>`;

const PAGES: Record<string, { title: string; links: string[] }> = {
  '/docs/': {
    title: 'Docs home',
    links: ['guide/', 'api', 'guide/#install', 'guide/?utm_source=nav', 'moved', '../about/'],
  },
  '/docs/guide/': { title: 'The guide', links: ['../api', './', '/docs/'] },
  '/docs/api': { title: 'API reference', links: ['/docs/'] },
  '/docs/changelog': { title: 'Changelog', links: [] },
  '/docs/deep/a/': { title: 'Deep A', links: [] },
  '/docs/deep/a/b': { title: 'Deep A B', links: [] },
  '/about/': { title: 'About', links: ['/docs/'] },
};

export async function startStrictSlashSite(opts: StrictSlashSiteOptions = {}): Promise<StrictSlashSite> {
  const requests: string[] = [];
  const notFound: string[] = [];
  let base = '';

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    requests.push(raw);
    const path = new URL(raw, 'http://x').pathname;
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
      res.end(body);
    };
    const known = PAGES[path];
    if (known) return send(200, 'text/html; charset=utf-8', page(known.title, known.links));
    switch (path) {
      case '/docs/moved':
        return send(301, 'text/plain', 'moved', { location: '/docs/guide/' });
      case '/blocked/':
        return send(403, 'text/html', page('Forbidden', []));
      case '/error/':
        return send(500, 'text/html', page('Server error', []));
      case '/hang/':
        return; // never answers
      case '/file.pdf':
        return send(200, 'application/pdf', '%PDF-1.4\n%fixture\n');
      case '/robots.txt':
        if (opts.sitemapPaths)
          return send(200, 'text/plain', `User-agent: *\nAllow: /\n\nSitemap: ${base}/sitemap.xml\n`);
        break;
      case '/sitemap.xml':
        if (opts.sitemapPaths) {
          const locs = opts.sitemapPaths.map((p) => `<url><loc>${base}${p}</loc></url>`).join('');
          return send(
            200,
            'application/xml',
            `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`,
          );
        }
        break;
    }
    notFound.push(raw);
    return send(404, 'text/html', page('Not found', []));
  };

  const listening = await listenLocal(createServer(handle));
  base = listening.url;
  return { url: listening.url, requests, notFound, close: listening.close };
}
