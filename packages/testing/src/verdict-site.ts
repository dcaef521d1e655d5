/**
 * A site whose pages are what a scraper must not sell as content, each in its generic shape (no
 * real site's markup): the page verdicts (`packages/content/src/verdict/`) and what the service
 * does with them (`packages/scraper/src/verdict-outcome.ts`).
 *
 *   /                  content; links to every page below (in this order): /soft-404, /error-page,
 *                      /article/1 … /article/4
 *   /article/n         content; links to / and the other articles
 *   /soft-404          200 "Page not found" (short); links to /hidden/1, /hidden/2 (never to be crawled)
 *   /error-page        200 nginx "502 Bad Gateway" default page
 *   /parked            200 "This domain is for sale" parking page
 *   /login             200 page that is only a sign-in form (a password input)
 *   /app-shell         200 `<div id="root"></div>` and a script: an empty app shell
 *   /challenge         403 with `cf-mitigated: challenge` (a Cloudflare-style challenge)
 *   /hidden/n          content, linked only from /soft-404
 * `set(path, html)` serves `html` (200) at `path` instead, for a page that changes (monitors).
 */
import { createServer } from 'node:http';
import { listenLocal } from './local-server';

export interface VerdictSite {
  url: string;
  /** How many requests reached `path` (pathname). */
  hits(path: string): number;
  /** Serve `html` with 200 at `path` from now on (replaces what is there). */
  set(path: string, html: string): void;
  close(): Promise<void>;
}

const ARTICLES = [1, 2, 3, 4];

/** A content page: a heading, enough prose to be an article, links. */
export function verdictSiteArticle(title: string, links: string[]): string {
  const prose = `${title} explains how tide tables are read, why the moon matters more than the sun, and how harbour pilots plan a passage around slack water. `;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body><nav>${links
    .map((h) => `<a href="${h}">${h}</a>`)
    .join(
      ' ',
    )}</nav><main><article><h1>${title}</h1><p>${prose.repeat(3)}</p><p>${prose}</p></article></main></body></html>`;
}

const SOFT_404 = `<!DOCTYPE html><html><head><title>Page not found</title></head><body><h1>Page not found</h1><p>Sorry, we couldn't find that page.</p><p><a href="/hidden/1">Popular</a> <a href="/hidden/2">Recent</a></p></body></html>`;
const NGINX_502 = `<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
const PARKED = `<!DOCTYPE html><html><head><title>example-tides.com</title></head><body><h1>example-tides.com</h1><p>This domain is for sale! Make an offer today.</p><p>Related searches: tide tables, harbour pilots, boat hire.</p></body></html>`;
const LOGIN = `<!DOCTYPE html><html><head><title>Sign in</title></head><body><form method="post" action="/session"><label>Email <input type="email" name="email"></label><label>Password <input type="password" name="password"></label><button type="submit">Sign in</button></form></body></html>`;
const APP_SHELL = `<!DOCTYPE html><html><head><title>Tides</title></head><body><div id="root"></div><script src="/static/app.js"></script></body></html>`;
const CHALLENGE = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><noscript>Enable JavaScript and cookies to continue</noscript></body></html>`;

export async function startVerdictSite(): Promise<VerdictSite> {
  const hits = new Map<string, number>();
  const overrides = new Map<string, string>();
  const articleLinks = (n: number) => ['/', ...ARTICLES.filter((a) => a !== n).map((a) => `/article/${a}`)];
  const fixed: Record<string, string> = {
    '/': verdictSiteArticle('Tides home', [
      '/soft-404',
      '/error-page',
      ...ARTICLES.map((a) => `/article/${a}`),
    ]),
    '/soft-404': SOFT_404,
    '/error-page': NGINX_502,
    '/parked': PARKED,
    '/login': LOGIN,
    '/app-shell': APP_SHELL,
    '/hidden/1': verdictSiteArticle('Hidden one', ['/']),
    '/hidden/2': verdictSiteArticle('Hidden two', ['/']),
    ...Object.fromEntries(
      ARTICLES.map((a) => [`/article/${a}`, verdictSiteArticle(`Article ${a}`, articleLinks(a))]),
    ),
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const html = overrides.get(path) ?? fixed[path];
    if (path === '/challenge' && html === undefined) {
      res.writeHead(403, {
        'content-type': 'text/html; charset=utf-8',
        'cf-mitigated': 'challenge',
        server: 'cloudflare',
      });
      return void res.end(CHALLENGE);
    }
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('not found');
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  const listening = await listenLocal(server);
  return {
    url: listening.url,
    hits: (p) => hits.get(p) ?? 0,
    set: (p, html) => overrides.set(p, html),
    close: () => listening.close(),
  };
}
