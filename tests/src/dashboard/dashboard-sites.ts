/**
 * Local sites for the dashboard tests (127.0.0.1, random port, never the internet):
 *  - `/page/<n>`: plain article pages with a unique phrase each;
 *  - `/slow/` + `/slow/<k>`: a crawlable tree whose pages each answer after SLOW_PAGE_MS, so a
 *    crawl of it stays visibly in progress for a few refreshes of the page;
 *  - `/hostile`, `/hostile/2`: pages whose title, text, links and metadata carry markup and
 *    `javascript:` URLs that must only ever be shown as text;
 *  - any path set with `set()` (monitored pages the test rewrites).
 * Plus a webhook receiver answering 200 that records every delivery.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenLocal } from '@wcs/testing';

export const SLOW_PAGE_MS = 300;

/** The hostile strings, as they must appear (as text) once extracted. */
export const HOSTILE_IMG = '<img src=x onerror=window.__pwned=1>';
export const HOSTILE_SCRIPT = '<script>alert(1)</script>';
export const HOSTILE_TITLE = `${HOSTILE_IMG} ${HOSTILE_SCRIPT} title`;

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const SENTENCES = [
  'The dashboard shows what the account spent and when, one row per ledger entry.',
  'Every credit charged for a page is refunded when the page could not be fetched at all.',
  'Operators read the usage chart first and the table under it when numbers must be exact.',
  'A monitor checks its page on a schedule and raises a change only when the text differs.',
];

export function articleHtml(title: string, lead: string, extraBody = '', extraHead = ''): string {
  const paragraphs = [lead, ...SENTENCES].map((s) => `<p>${escapeHtml(s)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(`${title}: a dashboard fixture page`)}">${extraHead}</head>
<body><header><nav><a href="/">Home</a></nav></header>
<main><article><h1>${escapeHtml(title)}</h1>
${paragraphs}
${extraBody}
</article></main><footer><p>Fixture footer</p></footer></body></html>`;
}

/** The unique phrase of /page/<n> (tests look for it in markdown, text and snapshots). */
export const pagePhrase = (n: number): string => `Fixture page number ${n} talks about sourdough starters.`;

/**
 * The hostile page. The title and the first paragraph carry the markup as escaped entities (so it
 * survives extraction as literal text); the rest is live markup a careless renderer would run.
 */
export function hostileHtml(variant = ''): string {
  const text = `Hostile text ${variant} ${HOSTILE_IMG} ${HOSTILE_SCRIPT} <svg onload=window.__pwned=1> end.`;
  const live = `
<p>Live markup follows: <img src=x onerror="window.__pwned=1"> <svg onload="window.__pwned=1"></svg></p>
<script>window.__pwned = 1; alert(1)</script>
<p><a href="javascript:window.__pwned=1">click</a> and <a href="JaVaScRiPt:alert(1)">mixed case</a>
and <a href="data:text/html,<script>alert(1)</script>">data link</a> and <a href="/hostile/2">the second hostile page</a>.</p>
<iframe src="javascript:alert(1)"></iframe>`;
  const head = `
<meta property="og:title" content="${escapeHtml(HOSTILE_IMG)}">
<meta property="og:image" content="javascript:window.__pwned=1">
<meta property="og:url" content="javascript:window.__pwned=1">
<link rel="canonical" href="javascript:window.__pwned=1">`;
  return articleHtml(HOSTILE_TITLE, text, live, head);
}

export interface DashboardSite {
  url: string;
  /** Serve `html` at `path` (overrides the built-in pages). */
  set(path: string, html: string): void;
  hits(path: string): number;
  close(): Promise<void>;
}

/** `slowPages` pages under /slow/ (the index links to all of them), each SLOW_PAGE_MS late. */
export async function startDashboardSite(opts: { slowPages?: number } = {}): Promise<DashboardSite> {
  const slowPages = opts.slowPages ?? 12;
  const overrides = new Map<string, string>();
  const hits = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const send = (status: number, body: string): void => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    };
    const override = overrides.get(path);
    if (override !== undefined) return send(200, override);
    const page = /^\/page\/(\d+)$/.exec(path);
    if (page) return send(200, articleHtml(`Fixture page ${page[1]}`, pagePhrase(Number(page[1]))));
    if (path === '/hostile') return send(200, hostileHtml());
    if (path === '/hostile/2') return send(200, hostileHtml('two'));
    if (path === '/slow' || path === '/slow/') {
      const links = Array.from(
        { length: slowPages },
        (_, i) => `<li><a href="/slow/${i + 1}">Slow ${i + 1}</a></li>`,
      );
      return send(
        200,
        articleHtml('Slow index', 'The slow section lists its pages.', `<ul>${links.join('')}</ul>`),
      );
    }
    const slow = /^\/slow\/(\d+)$/.exec(path);
    if (slow) {
      // Delayed so the crawl's progress is visible over several of the page's refreshes.
      const t = setTimeout(() => {
        timers.delete(t);
        send(200, articleHtml(`Slow page ${slow[1]}`, `Slow page ${slow[1]} arrived late on purpose.`));
      }, SLOW_PAGE_MS);
      timers.add(t);
      return;
    }
    send(404, 'not found');
  });
  const listening = await listenLocal(server, timers);
  return {
    url: listening.url,
    set: (path, html) => overrides.set(path, html),
    hits: (path) => hits.get(path) ?? 0,
    close: () => listening.close(),
  };
}

export interface Delivery {
  path: string;
  body: string;
  headers: IncomingHttpHeaders;
}

/** Webhook receiver: answers 200 to everything and records it. */
export async function startReceiver(): Promise<{
  url: string;
  received: Delivery[];
  close(): Promise<void>;
}> {
  const received: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      });
      res.writeHead(200).end('ok');
    });
  });
  const listening = await listenLocal(server);
  return { url: listening.url, received, close: () => listening.close() };
}
