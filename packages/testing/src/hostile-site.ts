/**
 * A hostile local web site: every page a careless scraper chokes on (see HOSTILE_CASES). Each case
 * lives under `/<case>/<nonce>`, so a caller takes a fresh path per call and no cache can answer
 * for the site. One handler listens on a few ports ("origins"), because robots.txt and sitemaps
 * are per origin: `main` (tiny robots.txt, no sitemap), `robots-huge` (10 MB robots.txt),
 * `sitemap-self` (a sitemap index listing itself), `sitemap-million` (1,000,000 URLs, streamed).
 * Requests are counted per path and announced, so tests wait for "the site saw it", not a sleep.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { sendBrotliBomb, sendGzipBomb } from './hostile-bombs';
import {
  appShellHtml,
  articleHtml,
  type BinaryKind,
  binaryBody,
  charsetBody,
  selfSitemapIndex,
  sendDeepNesting,
  sendEndless,
  sendHuge,
  sendHugeRobots,
  sendHugeText,
  sendManyLinks,
  sendMillionSitemap,
  smallSitemap,
} from './hostile-pages';
import { type PrivateListeners, privateProbeHtml, startPrivateListeners } from './hostile-private-probe';
import { type ListeningServer, listenLocal } from './local-server';

export const HOSTILE_CASES = [
  'page',
  'huge',
  'endless',
  'slow-loris',
  'slow-headers',
  'gzip-bomb',
  'brotli-bomb',
  'deep-nesting',
  'huge-text',
  'many-links',
  'binary-png',
  'binary-zip',
  'binary-random',
  'charset-latin1-as-utf8',
  'charset-unknown',
  'redirect-loop',
  'redirect-chain',
  'app-shell',
  'private-connections',
] as const;
export type HostileCase = (typeof HOSTILE_CASES)[number];

export const HOSTILE_ORIGINS = ['main', 'robots-huge', 'sitemap-self', 'sitemap-million'] as const;
export type HostileOrigin = (typeof HOSTILE_ORIGINS)[number];

/** Hops of `redirect-chain` (the service follows at most MAX_REDIRECTS, 10 by default). */
export const REDIRECT_CHAIN_HOPS = 30;
/** Seconds between the bytes of `slow-loris`. */
export const SLOW_LORIS_INTERVAL_MS = 2_000;

export interface HostileSite {
  /** Base URL of the `main` origin. */
  url: string;
  origin(name: HostileOrigin): string;
  /** A fresh URL for `name` on `origin` (default main): `/<case>/<nonce>`. */
  caseUrl(name: HostileCase, origin?: HostileOrigin): string;
  /** Requests that reached exactly this pathname, on any origin. */
  hits(path: string): number;
  /** Resolves when a request for `path` (pathname) has arrived, at once if one already has. */
  waitForHit(path: string, timeoutMs: number): Promise<void>;
  /** Counters the private-connections page aims at: they must stay 0. */
  privateListeners: PrivateListeners;
  close(): Promise<void>;
}

let nonceSeq = 0;

export async function startHostileSite(): Promise<HostileSite> {
  const counts = new Map<string, number>();
  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);
  const timers = new Set<NodeJS.Timeout>();
  const listeners = await startPrivateListeners();
  const bases = new Map<number, { origin: HostileOrigin; base: string }>();
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
    return t;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const port = req.socket.localPort ?? 0;
    const { origin, base } = bases.get(port) ?? { origin: 'main' as const, base: '' };
    const url = new URL(req.url ?? '/', base || 'http://127.0.0.1');
    const path = url.pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    arrivals.emit(path);
    res.on('error', () => {});
    const [, name = '', nonce = '', step = ''] = path.split('/');
    const html = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    const redirect = (to: string) => {
      res.writeHead(302, { location: to });
      res.end();
    };

    if (path === '/robots.txt') {
      if (origin === 'robots-huge') return void sendHugeRobots(res);
      res.writeHead(200, { 'content-type': 'text/plain' });
      const sitemap =
        origin === 'sitemap-self'
          ? `Sitemap: ${base}/sitemap-index.xml\n`
          : origin === 'sitemap-million'
            ? `Sitemap: ${base}/sitemap-million.xml\n`
            : '';
      return void res.end(`User-agent: *\nAllow: /\n${sitemap}`);
    }
    if (path === '/sitemap-index.xml' && origin === 'sitemap-self') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return void res.end(selfSitemapIndex(base));
    }
    if (path === '/sitemap-pages.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return void res.end(smallSitemap(base));
    }
    if (path === '/sitemap-million.xml' && origin === 'sitemap-million')
      return void sendMillionSitemap(res, base);

    switch (name as HostileCase) {
      case 'page':
        return html(articleHtml(`Page ${nonce}`, `<a href="${base}/page/${nonce}-next">next</a>`));
      case 'huge':
        return void sendHuge(res);
      case 'endless':
        return void sendEndless(res);
      case 'slow-loris': {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.flushHeaders();
        const drip = () => {
          if (res.destroyed) return;
          res.write('<');
          after(SLOW_LORIS_INTERVAL_MS, drip);
        };
        return void after(SLOW_LORIS_INTERVAL_MS, drip);
      }
      case 'slow-headers':
        return; // the socket stays open, silent, until the client or close() ends it
      case 'gzip-bomb':
        return void sendGzipBomb(res);
      case 'brotli-bomb':
        return void sendBrotliBomb(res);
      case 'deep-nesting':
        return void sendDeepNesting(res);
      case 'huge-text':
        return void sendHugeText(res);
      case 'many-links':
        return void sendManyLinks(res, base);
      case 'binary-png':
      case 'binary-zip':
      case 'binary-random': {
        const body = binaryBody(name.slice('binary-'.length) as BinaryKind);
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(body.length) });
        return void res.end(body);
      }
      case 'charset-latin1-as-utf8':
      case 'charset-unknown': {
        const { type, body } = charsetBody(name === 'charset-unknown' ? 'unknown' : 'latin1-as-utf8');
        res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) });
        return void res.end(body);
      }
      case 'redirect-loop':
        return redirect(`/redirect-loop/${nonce}/${step === 'a' ? 'b' : 'a'}`);
      case 'redirect-chain': {
        const n = Number(step || 0);
        if (n >= REDIRECT_CHAIN_HOPS) return html(articleHtml('End of the chain'));
        return redirect(`/redirect-chain/${nonce}/${n + 1}`);
      }
      case 'app-shell':
        return html(appShellHtml(`${base}/endless/${nonce}-frame`));
      case 'private-connections': {
        const self = `/private-connections/${nonce}`;
        if (step === 'fired') return html('ok');
        if (step === 'hold.js') {
          res.writeHead(200, { 'content-type': 'text/javascript' });
          const release = () => !res.writableEnded && res.end('/* released */');
          const t = after(5_000, release);
          // The probes report on /fired; the page's load then proceeds.
          if ((counts.get(`${self}/fired`) ?? 0) > 0) return void release();
          return void arrivals.once(`${self}/fired`, () => {
            clearTimeout(t);
            timers.delete(t);
            release();
          });
        }
        return html(privateProbeHtml(self, listeners));
      }
      default:
        return html(articleHtml('Not found'), 404);
    }
  };

  const servers: ListeningServer[] = [];
  try {
    for (const origin of HOSTILE_ORIGINS) {
      const s = await listenLocal(createServer(handle), timers);
      bases.set(s.port, { origin, base: s.url });
      servers.push(s);
    }
  } catch (err) {
    await Promise.all(servers.map((s) => s.close()));
    await listeners.close();
    throw err;
  }
  const baseOf = (o: HostileOrigin) => [...bases.values()].find((b) => b.origin === o)?.base ?? '';

  return {
    url: baseOf('main'),
    origin: baseOf,
    caseUrl(name, origin = 'main') {
      const nonce = `${process.pid}-${Date.now().toString(36)}-${++nonceSeq}`;
      const tail = name === 'redirect-loop' ? '/a' : '';
      return `${baseOf(origin)}/${name}/${nonce}${tail}`;
    },
    hits: (path) => counts.get(path) ?? 0,
    waitForHit(path, timeoutMs) {
      if ((counts.get(path) ?? 0) > 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => {
          arrivals.off(path, onHit);
          reject(new Error(`the hostile site saw no request for ${path} within ${timeoutMs} ms`));
        }, timeoutMs);
        const onHit = () => {
          clearTimeout(t);
          resolve();
        };
        arrivals.once(path, onHit);
      });
    },
    privateListeners: listeners,
    async close() {
      await Promise.all(servers.map((s) => s.close()));
      await listeners.close();
    },
  };
}
