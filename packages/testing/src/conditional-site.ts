/**
 * A site that answers with validators (`ETag`, `Last-Modified`) and honours conditional requests
 * with `304 Not Modified` — or, with `ignoreValidators`, always answers 200 again. It counts what
 * it was asked and what it sent (requests, 304s, body bytes), so a test or bench can tell a
 * revalidated visit from a download. Pages are HTML articles whose text changes with `change()`.
 * With `sitemap`, `/sitemap.xml` lists every page with its `<lastmod>`, which moves to the time of
 * a `change()` (unless told not to: a site whose sitemap lags behind its pages).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { type ListeningServer, listenLocal } from './local-server';

export interface ConditionalSiteOptions {
  /** Pages `/page/0` … `/page/{pages-1}`, each linking to the next `links` pages (a crawlable ring). */
  pages: number;
  links?: number;
  /** Page i links to pages links·i+1 … links·i+links instead (a tree: every page within a few levels). */
  tree?: boolean;
  /** Send `ETag` (default true) and `Last-Modified` (default true). */
  etag?: boolean;
  lastModified?: boolean;
  /** Answer 200 with the full page to every request, validators or not. */
  ignoreValidators?: boolean;
  /** Paragraphs of filler per page (default 12: ~2.5 KB a page). */
  paragraphs?: number;
  /** Pages load `/app.js` (a subresource, answered 200 without validators). */
  script?: boolean;
  /**
   * Serve `/sitemap.xml`: every page with its `<lastmod>` (ISO time; before any change, the page's
   * Last-Modified). `gzip`: compressed, sent with `Content-Encoding: gzip` as real servers do;
   * `dateOnly`: lastmod as a date (`2026-12-05`), as many sites write it.
   */
  sitemap?: boolean | { gzip?: boolean; dateOnly?: boolean };
  /**
   * The HTML of page `i` at `version` (0 until its first `change()`), in place of the generated
   * article (`paragraphs` is then unused): e.g. a real page. `links` are the absolute URLs of the
   * pages it must link to (the ring or tree above); the page must carry them for a crawl to go on.
   */
  page?: (i: number, p: { version: number; links: string[] }) => string;
}

export interface ConditionalRequest {
  path: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  status: number;
}

/** A fixed answer for a path (a bare 304, a redirect: `headers: { location }`). */
export interface Override {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface ConditionalSite extends ListeningServer {
  /** Every request, in order. */
  readonly requests: ConditionalRequest[];
  /** Totals since the start or the last `resetCounts()`. */
  counts(): { requests: number; notModified: number; ok: number; bodyBytes: number };
  /** Bytes written to clients (status lines, headers and bodies) since the start or `resetCounts()`. */
  wireBytes(): number;
  resetCounts(): void;
  /**
   * Change the text of page `i` (a new ETag and Last-Modified); its sitemap lastmod moves to now,
   * unless `lastmod: false` (the sitemap then lags behind the page).
   */
  change(i: number, o?: { lastmod?: boolean }): void;
  /** Page `i`'s sitemap `<lastmod>` as served. */
  lastmod(i: number): string;
  /** Answer every later request for `path` with this status and body, no validators (e.g. a bare 304). */
  override(path: string, answer: Override | undefined): void;
  /** The current ETag and Last-Modified of page `i`. */
  validators(i: number): { etag: string; lastModified: string };
  setIgnoreValidators(ignore: boolean): void;
}

export async function startConditionalSite(o: ConditionalSiteOptions): Promise<ConditionalSite> {
  const links = o.links ?? 5;
  const paragraphs = o.paragraphs ?? 12;
  const versions = new Array<number>(o.pages).fill(0);
  // Whole seconds, as HTTP dates carry; each change moves its page's date on by one.
  const epoch = Math.floor(Date.UTC(2026, 0, 1) / 1000);
  const changedAt = new Array<number>(o.pages).fill(epoch);
  // The sitemap's lastmod per page: the initial Last-Modified, then the time of each change.
  const dateOnly = typeof o.sitemap === 'object' && o.sitemap.dateOnly === true;
  const w3c = (d: Date) => (dateOnly ? d.toISOString().slice(0, 10) : d.toISOString());
  const lastmods = changedAt.map((t) => w3c(new Date(t * 1000)));
  const overrides = new Map<string, Override>();
  let ignore = o.ignoreValidators === true;
  const requests: ConditionalRequest[] = [];
  let counts = { requests: 0, notModified: 0, ok: 0, bodyBytes: 0 };

  const html = (i: number): string => {
    const next = o.tree
      ? Array.from({ length: links }, (_, k) => links * i + k + 1).filter((n) => n < o.pages)
      : Array.from({ length: Math.min(links, o.pages - 1) }, (_, k) => (i + k + 1) % o.pages);
    if (o.page)
      return o.page(i, {
        version: versions[i] as number,
        links: next.map((n) => `${listening.url}/page/${n}`),
      });
    const filler = Array.from(
      { length: paragraphs },
      (_, p) =>
        `<p>Paragraph ${p} of page ${i}: conditional requests let a client ask whether its stored copy is still current, and the server answers with a short not-modified status instead of the whole document.</p>`,
    ).join('\n');
    return `<!doctype html><html><head><title>Page ${i}</title>${o.script ? '<script src="/app.js"></script>' : ''}</head><body><main><article>
<h1>Page ${i}</h1><p>Version ${versions[i]} of page ${i}.</p>
${filler}
<nav>${next.map((n) => `<a href="/page/${n}">page ${n}</a>`).join(' ')}</nav>
</article></main></body></html>`;
  };
  const validators = (i: number) => ({
    etag: `"${createHash('sha1').update(`${i}:${versions[i]}`).digest('hex').slice(0, 16)}"`,
    lastModified: new Date(((changedAt[i] as number) + (versions[i] as number)) * 1000).toUTCString(),
  });
  const header = (req: IncomingMessage, name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const ifNoneMatch = header(req, 'if-none-match');
    const ifModifiedSince = header(req, 'if-modified-since');
    const record = (status: number, bytes: number) => {
      requests.push({
        path,
        status,
        ...(ifNoneMatch ? { ifNoneMatch } : {}),
        ...(ifModifiedSince ? { ifModifiedSince } : {}),
      });
      counts.requests++;
      if (status === 304) counts.notModified++;
      if (status === 200) counts.ok++;
      counts.bodyBytes += bytes;
    };
    const forced = overrides.get(path);
    if (forced) {
      const body = forced.body ?? '';
      record(forced.status, Buffer.byteLength(body));
      res.writeHead(forced.status, {
        ...(body ? { 'content-type': 'text/html; charset=utf-8' } : {}),
        ...forced.headers,
      });
      res.end(body);
      return;
    }
    if (path === '/sitemap.xml' && o.sitemap) {
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${lastmods
        .map((t, i) => `<url><loc>${listening.url}/page/${i}</loc><lastmod>${t}</lastmod></url>`)
        .join('\n')}\n</urlset>\n`;
      const gzip = typeof o.sitemap === 'object' && o.sitemap.gzip === true;
      const body = gzip ? gzipSync(xml) : Buffer.from(xml, 'utf8');
      record(200, body.length);
      res.writeHead(200, {
        'content-type': 'application/xml; charset=utf-8',
        'content-length': String(body.length),
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      res.end(body);
      return;
    }
    if (path === '/app.js') {
      const js = 'document.documentElement.dataset.app = "1";';
      record(200, js.length);
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(js);
      return;
    }
    const m = /^\/page\/(\d+)$/.exec(path);
    const i = m ? Number(m[1]) : path === '/' ? 0 : -1;
    if (i < 0 || i >= o.pages) {
      record(404, 9);
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const v = validators(i);
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      ...(o.etag !== false ? { etag: v.etag } : {}),
      ...(o.lastModified !== false ? { 'last-modified': v.lastModified } : {}),
    };
    if (!ignore) {
      // RFC 9110 §13.2.2: If-None-Match wins; If-Modified-Since counts only without it.
      const fresh =
        o.etag !== false && ifNoneMatch !== undefined
          ? ifNoneMatch.split(',').some((t) => t.trim() === v.etag || t.trim() === '*')
          : o.lastModified !== false &&
            ifModifiedSince !== undefined &&
            Date.parse(ifModifiedSince) >= Date.parse(v.lastModified);
      if (fresh) {
        record(304, 0);
        const { 'content-type': _type, ...validatorsOnly } = headers;
        res.writeHead(304, validatorsOnly);
        res.end();
        return;
      }
    }
    const body = Buffer.from(html(i), 'utf8');
    record(200, body.length);
    res.writeHead(200, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  });
  // Every byte written, headers included: closed sockets' totals plus the open ones' so far.
  const open = new Set<Socket>();
  let closedBytes = 0;
  let wireBase = 0;
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => {
      open.delete(socket);
      closedBytes += socket.bytesWritten;
    });
  });
  const wire = () => closedBytes + [...open].reduce((n, sk) => n + sk.bytesWritten, 0);
  const listening = await listenLocal(server);
  return {
    ...listening,
    requests,
    counts: () => ({ ...counts }),
    wireBytes: () => wire() - wireBase,
    resetCounts: () => {
      counts = { requests: 0, notModified: 0, ok: 0, bodyBytes: 0 };
      requests.length = 0;
      wireBase = wire();
    },
    change: (i, c) => {
      versions[i] = (versions[i] as number) + 1;
      if (c?.lastmod !== false) lastmods[i] = w3c(new Date());
    },
    lastmod: (i) => lastmods[i] as string,
    override: (path, answer) => {
      if (answer) overrides.set(path, answer);
      else overrides.delete(path);
    },
    validators,
    setIgnoreValidators: (v) => {
      ignore = v;
    },
  };
}
