/**
 * A site behind bot walls, for the scraper's escalation ladder: each path plays one wall a real
 * browser meets, and the site counts the requests of every path (query included, so a test can
 * take a fresh path with `?t=…`).
 *   /challenge   503 + `cf-mitigated: challenge` + a "Just a moment..." page whose script sets a
 *                cookie and reloads; with the cookie, the real article
 *   /never       the same challenge, whose script never clears it
 *   /slow-limit  429 `Retry-After: 1` on the first request, then the article
 *   /date-limit  503 `Retry-After: <HTTP date 1 s ahead>` on the first request, then the article
 *   /long-limit  429 `Retry-After: 3600`, always
 *   /wait-limit  429 `Retry-After: 100`, always (a wait the budget affords, for abort tests)
 *   /proxied     403 wall to direct requests; the article to requests arriving from `proxyEgress`
 *                (the test proxy's egress address, see ForwardProxyOptions)
 *   /plain       the article
 */
import http from 'node:http';
import { type ListeningServer, listenLocal } from './local-server';

export const WALL_SITE_ARTICLE = 'The real article behind the wall, with its own sentences.';
const COOKIE = 'wcs_challenge_cleared=1';

export interface WallSite extends ListeningServer {
  /** Requests seen for a path (with its query), e.g. `/slow-limit?t=1`. */
  requests(pathAndQuery: string): number;
}

const article = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${WALL_SITE_ARTICLE} ${'Ordinary prose follows here, sentence after sentence. '.repeat(12)}</p>` +
  '</article></body></html>';

/** What a JS challenge looks like to a client without JavaScript. */
const challenge = (clears: boolean) =>
  '<!doctype html><html><head><title>Just a moment...</title></head><body>' +
  '<noscript>Enable JavaScript and cookies to continue</noscript><p>Checking your browser.</p>' +
  (clears
    ? `<script>setTimeout(function () { document.cookie = '${COOKIE}; path=/'; location.reload(); }, 50);</script>`
    : '<script>window.__checked = true;</script>') +
  '</body></html>';

export interface WallSiteOptions {
  /** Requests from this address pass /proxied (the test proxy's egress address). */
  proxyEgress?: string;
  /** Called once an answer has been sent, with the path and query it answered. */
  onAnswered?: (pathAndQuery: string) => void;
}

export async function startWallSite(o: WallSiteOptions = {}): Promise<WallSite> {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const n = (counts.get(url) ?? 0) + 1;
    counts.set(url, n);
    res.on('finish', () => o.onAnswered?.(url));
    const path = url.split('?')[0];
    const html = { 'content-type': 'text/html; charset=utf-8' };
    const wall = (status: number, headers: Record<string, string> = {}, body = challenge(false)) =>
      res.writeHead(status, { ...html, ...headers }).end(body);
    switch (path) {
      case '/challenge':
        if ((req.headers.cookie ?? '').includes(COOKIE)) res.writeHead(200, html).end(article('Cleared'));
        else wall(503, { 'cf-mitigated': 'challenge' }, challenge(true));
        return;
      case '/never':
        wall(503, { 'cf-mitigated': 'challenge' });
        return;
      case '/slow-limit':
        if (n === 1) wall(429, { 'retry-after': '1' }, 'Too many requests');
        else res.writeHead(200, html).end(article('After the wait'));
        return;
      case '/date-limit':
        if (n === 1) wall(503, { 'retry-after': new Date(Date.now() + 1_000).toUTCString() }, 'Busy');
        else res.writeHead(200, html).end(article('After the date'));
        return;
      case '/long-limit':
        wall(429, { 'retry-after': '3600' }, 'Too many requests');
        return;
      case '/wait-limit':
        wall(429, { 'retry-after': '100' }, 'Too many requests');
        return;
      case '/proxied':
        if (o.proxyEgress && req.socket.remoteAddress === o.proxyEgress)
          res.writeHead(200, html).end(article('Through the proxy'));
        else
          wall(403, {}, '<html><head><title>Access denied</title></head><body>Access denied</body></html>');
        return;
      case '/plain':
        res.writeHead(200, html).end(article('Plain'));
        return;
      case '/auth':
        wall(
          401,
          { 'www-authenticate': 'Basic realm="members"' },
          '<html><body>Authorization required</body></html>',
        );
        return;
      default:
        res.writeHead(404, html).end('not found');
    }
  });
  const listening = await listenLocal(server);
  return { ...listening, requests: (p) => counts.get(p) ?? 0 };
}
