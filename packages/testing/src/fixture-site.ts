/**
 * A deterministic local web site for tests and benchmarks: realistic article pages, a JS-only page,
 * legacy charsets, redirects (chains, loops, to private hosts), slow/hanging/huge responses and
 * non-HTML content. Listens on 127.0.0.1 with a random port; close() destroys open sockets so
 * jest can exit.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { endlessPage, privatePage, type TreeOptions, treePage } from './crawl-fixture-pages';
import { listenLocal } from './local-server';

export interface FixtureSite {
  url: string;
  port: number;
  /** How many requests reached `path` (exact pathname, no query string). */
  hits(path: string): number;
  /** `METHOD path` lines in arrival order. */
  accessLog: string[];
  /** Every request with its arrival time (ms since epoch), in arrival order. */
  requests: Array<{ path: string; search: string; at: number }>;
  close(): Promise<void>;
}

const TOPICS = [
  ['Sourdough Baking', 'starter', 'hydration', 'crumb', 'levain', 'oven spring'],
  ['Urban Beekeeping', 'colony', 'queen', 'nectar flow', 'smoker', 'brood'],
  ['Mechanical Keyboards', 'switch', 'keycap', 'stabilizer', 'firmware', 'layout'],
  ['Tidal Energy', 'turbine', 'estuary', 'barrage', 'spring tide', 'grid'],
  ['Medieval Cartography', 'portolan', 'mappa mundi', 'compass rose', 'vellum', 'coastline'],
  ['Container Gardening', 'drainage', 'potting mix', 'root ball', 'mulch', 'seedling'],
  ['Distributed Consensus', 'quorum', 'leader election', 'log replication', 'term', 'follower'],
  ['Coffee Roasting', 'first crack', 'green bean', 'development time', 'drum', 'roast curve'],
  ['Alpine Glaciers', 'moraine', 'crevasse', 'ablation', 'firn', 'icefall'],
  ['Typeface Design', 'kerning', 'serif', 'x-height', 'ligature', 'counter'],
  ['Bicycle Maintenance', 'derailleur', 'chain wear', 'spoke tension', 'bottom bracket', 'cable'],
  ['Deep Sea Vents', 'chimney', 'chemosynthesis', 'tube worm', 'plume', 'sulfide'],
] as const;

const SENTENCES = [
  'Most practitioners agree that the {a} matters more than any single piece of equipment.',
  'When the {a} and the {b} are balanced, the results become remarkably consistent.',
  'A common mistake is to ignore the {b} until problems are already visible.',
  'Historical records show that the {c} was understood long before it had a name.',
  'Measuring the {c} carefully over several weeks reveals patterns that are easy to miss.',
  'Experts often describe the {d} as the point where theory finally meets practice.',
  'Small adjustments to the {d} can change the outcome in surprising ways.',
  'Beginners should keep notes about the {e}, because memory is unreliable.',
  'The relationship between the {a} and the {e} is still debated in the community.',
  'Seasonal changes affect the {b} far more than most guides admit.',
  'There is no universal rule for the {c}; local conditions decide.',
  'Documenting each attempt makes it easier to see how the {d} evolves over time.',
];

/** Deterministic PRNG (mulberry32) so every run serves identical pages. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface FixtureArticle {
  title: string;
  paragraphs: string[];
}

/** The article served at /article/:n (exported so tests can assert on exact text). */
export function fixtureArticle(n: number): FixtureArticle {
  const topic = TOPICS[n % TOPICS.length]!;
  const [name, a, b, c, d, e] = topic;
  const rand = rng(n + 1);
  const part = Math.floor(n / TOPICS.length) + 1;
  const paragraphs: string[] = [];
  const count = 4 + Math.floor(rand() * 3);
  for (let p = 0; p < count; p++) {
    const sentences: string[] = [];
    const len = 3 + Math.floor(rand() * 3);
    for (let i = 0; i < len; i++) {
      const tpl = SENTENCES[Math.floor(rand() * SENTENCES.length)]!;
      sentences.push(
        tpl.replace('{a}', a).replace('{b}', b).replace('{c}', c).replace('{d}', d).replace('{e}', e),
      );
    }
    paragraphs.push(sentences.join(' '));
  }
  paragraphs[0] = `Article ${n} is part ${part} of our series on ${name.toLowerCase()}. ${paragraphs[0]}`;
  return { title: `${name}, part ${part}: notes on the ${a} (article ${n})`, paragraphs };
}

function layout(title: string, main: string, extraHead = ''): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(title)} — a fixture page for the web content service.">
<link rel="stylesheet" href="/assets/site.css">
${extraHead}
</head>
<body>
<header class="site-header">
  <a class="logo" href="/">Fixture Journal</a>
  <nav aria-label="Main"><ul>
    <li><a href="/">Home</a></li><li><a href="/article/0">Articles</a></li>
    <li><a href="/about">About</a></li><li><a href="/contact">Contact</a></li>
  </ul></nav>
</header>
<div id="cookie-banner" class="cookie-banner" role="dialog">
  We use cookies to improve your experience. <button>Accept all</button> <button>Reject</button>
</div>
${main}
<footer class="site-footer">
  <p>© 2024 Fixture Journal. All rights reserved.</p>
  <ul><li><a href="/privacy">Privacy</a></li><li><a href="/terms">Terms</a></li></ul>
</footer>
</body>
</html>
`;
}

function homePage(): string {
  const main = `<main>
<article>
  <h1>Understanding Web Content Extraction</h1>
  <p class="byline">By Ada Example · 12 March 2024</p>
  <img src="/assets/hero.png" alt="Hero illustration" width="800" height="400">
  <p>Extracting the main content of a web page means separating the article from navigation,
  advertising and other boilerplate. This page is a fixture used to test that process.</p>
  <h2>Comparison of approaches</h2>
  <table>
    <thead><tr><th>Approach</th><th>Speed</th><th>Accuracy</th></tr></thead>
    <tbody>
      <tr><td>Plain HTTP fetch</td><td>Fast</td><td>Good for static pages</td></tr>
      <tr><td>Headless browser</td><td>Slow</td><td>Needed for client-side rendering</td></tr>
    </tbody>
  </table>
  <h2>Example code</h2>
  <pre><code class="language-js">const res = await fetch('https://example.com/');
console.log(res.status);</code></pre>
  <p>Read more in <a href="/article/0">the first article</a> or <a href="/article/1">the second one</a>.</p>
</article>
<aside class="sidebar"><h3>Related</h3><ul><li><a href="/article/2">More reading</a></li></ul></aside>
</main>`;
  const fontCss = `<style>@font-face { font-family: Fixture; src: url(/assets/font.woff2) format('woff2'); }
body { font-family: Fixture, sans-serif; }</style>`;
  return layout('Understanding Web Content Extraction', main, fontCss);
}

function articlePage(n: number, pages: number): string {
  const art = fixtureArticle(n);
  const links: string[] = [];
  if (n > 0) links.push(`<a rel="prev" href="/article/${n - 1}">Previous article</a>`);
  if (n < pages - 1) links.push(`<a rel="next" href="/article/${n + 1}">Next article</a>`);
  const related = [7, 13, 29]
    .map((k) => (n + k) % pages)
    .filter((k) => k !== n)
    .map((k) => `<li><a href="/article/${k}">${escapeHtml(fixtureArticle(k).title)}</a></li>`)
    .join('');
  const body = art.paragraphs.map((p) => `  <p>${escapeHtml(p)}</p>`).join('\n');
  const main = `<main>
<article>
  <h1>${escapeHtml(art.title)}</h1>
  <p class="byline">By Fixture Staff</p>
${body}
  <nav class="pager">${links.join(' · ')}</nav>
</article>
<aside class="related"><h3>Related articles</h3><ul>${related}</ul></aside>
</main>`;
  return layout(art.title, main);
}

export const JS_ONLY_TEXT = 'This article was rendered entirely by client-side JavaScript.';

function jsOnlyPage(): string {
  const art = fixtureArticle(0);
  const html = `<h1>Client Rendered Article</h1><p>${JS_ONLY_TEXT}</p>${art.paragraphs
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('')}`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>App</title></head>
<body>
<noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root"></div>
<script>
  document.getElementById('root').innerHTML = ${JSON.stringify(html)};
</script>
</body></html>
`;
}

function latin1Page(withMetaOnly: boolean): Buffer {
  const meta = withMetaOnly ? '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">' : '';
  const html = `<!DOCTYPE html><html><head>${meta}<title>Café</title></head><body><main><p>café déjà vu</p></main></body></html>`;
  return Buffer.from(html, 'latin1');
}

// 1x1 transparent PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export interface FixtureSiteOptions {
  pages?: number;
  /** Crawl tests: the /tree pages (default 3 children per node, 3 levels). */
  tree?: TreeOptions;
  /** Replaces the robots.txt body; `{base}` becomes the site's origin. */
  robotsTxt?: string;
  /** Replaces the sitemap's URLs (paths, e.g. ['/tree/3/3']). */
  sitemapPaths?: string[];
  /** false: no sitemap (/sitemap.xml answers 404, robots.txt names none), as many sites have. */
  sitemap?: boolean;
}

export async function startFixtureSite(opts: FixtureSiteOptions = {}): Promise<FixtureSite> {
  const tree = opts.tree ?? { branching: 3, depth: 3 };
  const pages = Math.max(1, opts.pages ?? 50);
  const counts = new Map<string, number>();
  const accessLog: string[] = [];
  const requests: Array<{ path: string; search: string; at: number }> = [];
  // Every timer a slow route creates, so close() can stop them even if a client never disconnects.
  const timers = new Set<NodeJS.Timeout>();
  let base = '';

  const html = (
    res: ServerResponse,
    status: number,
    body: string | Buffer,
    type = 'text/html; charset=utf-8',
  ) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const redirect = (res: ServerResponse, location: string, status = 302) => {
    res.writeHead(status, { location, 'content-length': 0 });
    res.end();
  };

  const trackInterval = (res: ServerResponse, fn: () => void, ms: number) => {
    const t = setInterval(fn, ms);
    timers.add(t);
    const stop = () => {
      clearInterval(t);
      timers.delete(t);
    };
    res.on('close', stop);
    return stop;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const parsed = new URL(req.url ?? '/', 'http://x');
    const path = parsed.pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    accessLog.push(`${req.method ?? 'GET'} ${path}`);
    requests.push({ path, search: parsed.search, at: Date.now() });

    const treeHit = path.startsWith('/tree') ? treePage(path, tree) : null;
    if (treeHit) return html(res, treeHit.status, treeHit.html);
    if (path === '/endless')
      return html(res, 200, endlessPage(Number(parsed.searchParams.get('page') ?? 0) || 0));
    if (path.startsWith('/private/')) return html(res, 200, privatePage(path));

    const article = /^\/article\/(\d+)$/.exec(path);
    if (article) {
      const n = Number(article[1]);
      // `?delay=ms` answers late (up to 5 s), so tests can catch work in flight.
      const delay = Math.min(5_000, Number(parsed.searchParams.get('delay') ?? 0) || 0);
      if (n < pages && delay > 0) {
        const t = setTimeout(() => {
          timers.delete(t);
          html(res, 200, articlePage(n, pages));
        }, delay);
        timers.add(t);
        return;
      }
      if (n < pages) return html(res, 200, articlePage(n, pages));
      return html(res, 404, layout('Not found', '<main><h1>Article not found</h1></main>'));
    }
    const hops = /^\/redirect\/(\d+)$/.exec(path);
    if (hops) {
      const n = Number(hops[1]);
      return redirect(res, n <= 1 ? '/' : `/redirect/${n - 1}`);
    }

    switch (path) {
      case '/':
        return html(res, 200, homePage());
      case '/js-only':
        return html(res, 200, jsOnlyPage());
      case '/latin1':
        return html(res, 200, latin1Page(false), 'text/html; charset=iso-8859-1');
      case '/latin1-meta':
        return html(res, 200, latin1Page(true), 'text/html');
      case '/gzip': {
        const body = gzipSync(Buffer.from(articlePage(0, pages)));
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-encoding': 'gzip',
          'content-length': body.length,
        });
        return void res.end(body);
      }
      case '/no-content-type': {
        const body = Buffer.from('<!DOCTYPE html><html><body><p>No content type here.</p></body></html>');
        res.writeHead(200, { 'content-length': body.length });
        return void res.end(body);
      }
      case '/redirect-loop':
        return redirect(res, '/redirect-loop/b');
      case '/redirect-loop/b':
        return redirect(res, '/redirect-loop');
      case '/redirect-to-private':
        return redirect(res, 'http://10.0.0.1/');
      case '/redirect-to-file':
        return redirect(res, 'file:///etc/passwd');
      case '/slow': {
        // Headers now, then one byte per 200 ms forever: only a total (not an idle) timeout ends it.
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.write('<!DOCTYPE html><html><body><p>');
        trackInterval(res, () => res.write('.'), 200);
        return;
      }
      case '/hang':
        return; // never answers; the socket is destroyed by the client or close()
      case '/404':
        return html(res, 404, layout('Page not found', '<main><h1>404 — Page not found</h1></main>'));
      case '/500':
        return html(res, 500, layout('Server error', '<main><h1>500 — Internal server error</h1></main>'));
      case '/403-blocked':
        return html(
          res,
          403,
          layout('Access denied', '<main><h1>Access denied</h1><p>Automated access is blocked.</p></main>'),
        );
      case '/json':
        return html(
          res,
          200,
          JSON.stringify({ ok: true, items: [1, 2, 3], name: 'fixture' }),
          'application/json; charset=utf-8',
        );
      case '/text':
        return html(res, 200, 'Plain text fixture.\nSecond line.\n', 'text/plain; charset=utf-8');
      case '/image.png':
      case '/assets/hero.png':
        return html(res, 200, PNG, 'image/png');
      case '/assets/font.woff2':
        return html(res, 200, Buffer.alloc(64), 'font/woff2');
      case '/assets/site.css':
        return html(res, 200, 'body { margin: 0 auto; max-width: 60rem; }', 'text/css');
      case '/huge': {
        // 50 MB of HTML in 64 KiB chunks, respecting backpressure; stops when the client goes away.
        const total = 50 * 1024 * 1024;
        const chunk = Buffer.from(`<p>${'lorem ipsum dolor sit amet '.repeat(2340)}</p>\n`.slice(0, 65536));
        let sent = 0;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': total });
        res.write('<!DOCTYPE html><html><body>');
        sent += 27;
        const pump = () => {
          while (sent < total && !res.destroyed) {
            const slice = chunk.subarray(0, Math.min(chunk.length, total - sent));
            sent += slice.length;
            if (!res.write(slice)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        return pump();
      }
      case '/huge-chunked': {
        // Same 50 MB but without Content-Length, so only a streaming byte cap can stop it.
        const chunk = Buffer.from(`<p>${'chunked body text '.repeat(3640)}</p>\n`.slice(0, 65536));
        let left = 50 * 1024 * 1024;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const pump = () => {
          while (left > 0 && !res.destroyed) {
            left -= chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        return pump();
      }
      case '/reset':
        // Connection reset before any response bytes.
        return void req.socket.destroy();
      case '/cross-host': {
        // A subresource on another host name of this same server (for SSRF routing tests).
        const other = base.replace('127.0.0.1', 'localhost');
        return html(
          res,
          200,
          layout(
            'Cross host',
            `<main><article><h1>Cross host page</h1><p>${escapeHtml(fixtureArticle(1).paragraphs[0] ?? '')}</p></article></main>`,
            `<script src="${other}/assets/tracker.js"></script>`,
          ),
        );
      }
      case '/assets/tracker.js':
        return html(res, 200, 'window.tracked = true;', 'text/javascript');
      case '/robots.txt':
        if (opts.robotsTxt !== undefined) {
          return html(res, 200, opts.robotsTxt.replaceAll('{base}', base), 'text/plain; charset=utf-8');
        }
        return html(
          res,
          200,
          `User-agent: *\nDisallow: /private/\nAllow: /\n\nUser-agent: BadBot\nDisallow: /\n${opts.sitemap === false ? '' : `\nSitemap: ${base}/sitemap.xml\n`}`,
          'text/plain; charset=utf-8',
        );
      case '/sitemap.xml': {
        if (opts.sitemap === false) {
          return html(res, 404, layout('Page not found', '<main><h1>404 — Page not found</h1></main>'));
        }
        const urls = opts.sitemapPaths
          ? opts.sitemapPaths.map((p) => `${base}${p}`)
          : [`${base}/`, ...Array.from({ length: pages }, (_, i) => `${base}/article/${i}`)];
        const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
          .map((u) => `  <url><loc>${u}</loc><lastmod>2024-03-12</lastmod></url>`)
          .join('\n')}\n</urlset>\n`;
        return html(res, 200, xml, 'application/xml; charset=utf-8');
      }
      default:
        return html(res, 404, layout('Page not found', '<main><h1>404 — Page not found</h1></main>'));
    }
  };

  const listening = await listenLocal(createServer(handle), timers);
  base = listening.url;
  return {
    url: listening.url,
    port: listening.port,
    hits: (p) => counts.get(p) ?? 0,
    accessLog,
    requests,
    close: listening.close,
  };
}
