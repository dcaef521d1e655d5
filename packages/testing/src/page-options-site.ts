/**
 * A local site for the page-options end-to-end tests, on 127.0.0.1:
 * - /echo: the request's headers and cookies, written server-side into the HTML (`?visits` adds a
 *   visit number, so every fetch differs — a monitor sees a change on each check)
 * - /gated: an article only when the request carries `x-gate: open-sesame` (or the cookie
 *   `gate=open-sesame`), a sign-in notice otherwise (`?visits` as for /echo)
 * - /click: content only after a click on a button; /type: content after typing and Enter
 * - /tagged: header / nav / article / aside / footer / .ad sections, each with its own words
 * - /counter: counts its visits per query string; /counter-visits?<same query> answers the count
 * - /mobile: what the page's script sees (user agent, viewport, language, timezone)
 * - /links: links and images (relative, absolute, duplicated, a data: URI)
 * - /cross: loads /probe.js from `localhost` (another origin), which writes "probe loaded"
 * - /redirect?to=<url>: a 302 to that URL (e.g. the same server as `localhost`: another origin)
 * - /pixel.png, /other.png: tiny images for /links
 * Every request is recorded (path, query, headers) so tests can check what reached the site.
 */
import http from 'node:http';
import { type ListeningServer, listenLocal } from './local-server';

/** Text /click shows only after its button was clicked. */
export const PO_CLICK_TEXT = 'The hidden chapter appears only after the click';
/** /type shows this followed by what was typed, after Enter. */
export const PO_TYPE_PREFIX = 'You searched for';
/** /gated's article (shown only with the gate header or cookie). */
export const PO_GATED_TEXT = 'Members-only report: the harbour freight volumes doubled';
export const PO_GATE_HEADER = 'x-gate';
export const PO_GATE_VALUE = 'open-sesame';
/** /gated without the gate. */
export const PO_SIGN_IN_TEXT = 'Please sign in to read this report';
/** The words of each /tagged section. */
export const PO_TAGGED = {
  header: 'Headerword masthead',
  nav: 'Navword menu',
  article: 'Articleword story about tidal turbines',
  aside: 'Asideword related reading',
  footer: 'Footerword copyright',
  ad: 'Adword buy now',
} as const;

/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;

/** Enough prose that the main-content step keeps the article it sits in. */
const PROSE =
  '<p>This paragraph is here so that the main-content step has a real article to keep: it talks about ' +
  'the weather over the harbour, the ships that come and go, and the people who count them every day.</p>' +
  '<p>A second paragraph follows with more ordinary words, long enough to look like writing and not like ' +
  'navigation, so that no heuristic mistakes it for boilerplate and throws it away.</p>';

function cookiesOf(req: http.IncomingMessage): Array<[string, string]> {
  return (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter((c) => c.includes('='))
    .map((c) => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)] as [string, string]);
}

export interface PageOptionsSiteRequest {
  path: string;
  search: string;
  headers: http.IncomingHttpHeaders;
}

export interface PageOptionsSite extends ListeningServer {
  /** Every request in arrival order. */
  requests: PageOptionsSiteRequest[];
  /** How many requests reached `path` (pathname only). */
  hits(path: string): number;
  /** Visits of /counter with this query string (e.g. '?k=a'; '' for none). */
  counterVisits(search: string): number;
  /** The requests of one path (pathname only), in arrival order. */
  requestsTo(path: string): PageOptionsSiteRequest[];
}

export async function startPageOptionsSite(): Promise<PageOptionsSite> {
  const requests: PageOptionsSiteRequest[] = [];
  const counters = new Map<string, number>();
  let echoVisits = 0;
  let gatedVisits = 0;

  const pages: Record<string, (url: URL, req: http.IncomingMessage) => string> = {
    '/echo': (url, req) => {
      const headers = Object.entries(req.headers)
        .map(([k, v]) => `<li>header ${escapeHtml(k)} = ${escapeHtml(String(v))}</li>`)
        .join('');
      const cookies = cookiesOf(req)
        .map(([k, v]) => `<li>cookie ${escapeHtml(k)} = ${escapeHtml(v)}</li>`)
        .join('');
      const visit = url.searchParams.has('visits') ? `<p>Visit number ${++echoVisits}</p>` : '';
      return page(
        'Echo',
        `<main><article><h1>Echo of the request</h1>${visit}<h2>Headers</h2><ul id="headers">${headers}</ul>` +
          `<h2>Cookies</h2><ul id="cookies">${cookies || '<li>no cookies</li>'}</ul>${PROSE}</article></main>`,
      );
    },
    '/gated': (url, req) => {
      const visit = url.searchParams.has('visits') ? `<p>Visit number ${++gatedVisits}</p>` : '';
      const open =
        req.headers[PO_GATE_HEADER] === PO_GATE_VALUE ||
        cookiesOf(req).some(([k, v]) => k === 'gate' && v === PO_GATE_VALUE);
      return page(
        'Harbour report',
        `<main><article><h1>Harbour report</h1><p>${open ? PO_GATED_TEXT : PO_SIGN_IN_TEXT}</p>${visit}${PROSE}</article></main>`,
      );
    },
    '/click': () =>
      page(
        'Click',
        `<main><article><h1>Story</h1>${PROSE}<button id="more" type="button">Read more</button><div id="out"></div></article></main>
<script>
document.getElementById('more').addEventListener('click', () => {
  const p = document.createElement('p');
  p.id = 'revealed';
  p.textContent = ${JSON.stringify(PO_CLICK_TEXT)};
  document.getElementById('out').appendChild(p);
});
</script>`,
      ),
    '/type': () =>
      page(
        'Type',
        `<main><article><h1>Search</h1>${PROSE}<input id="q" autocomplete="off"><div id="out"></div></article></main>
<script>
document.getElementById('q').addEventListener('keydown', (e) => {
  if (e.key !== 'Enter') return;
  const p = document.createElement('p');
  p.id = 'result';
  p.textContent = ${JSON.stringify(PO_TYPE_PREFIX)} + ' ' + e.target.value;
  document.getElementById('out').appendChild(p);
});
</script>`,
      ),
    '/tagged': () =>
      page(
        'Tagged',
        `<header><p>${PO_TAGGED.header}</p></header><nav><a href="/echo">${PO_TAGGED.nav}</a></nav>` +
          `<article><h1>Tagged page</h1><p>${PO_TAGGED.article}</p>${PROSE}<div class="ad">${PO_TAGGED.ad}</div></article>` +
          `<aside><p>${PO_TAGGED.aside}</p></aside><footer><p>${PO_TAGGED.footer}</p></footer>`,
      ),
    '/counter': (url) => {
      const n = (counters.get(url.search) ?? 0) + 1;
      counters.set(url.search, n);
      return page(
        'Counter',
        `<main><article><h1>Counter page</h1><p>Served as visit ${n}.</p>${PROSE}</article></main>`,
      );
    },
    '/mobile': () =>
      page(
        'Mobile',
        `<main><article><h1>Device</h1>${PROSE}<pre id="device"></pre></article></main>
<script>
document.getElementById('device').textContent = [
  'ua=' + navigator.userAgent,
  'width=' + window.innerWidth,
  'height=' + window.innerHeight,
  'dpr=' + window.devicePixelRatio,
  'touch=' + navigator.maxTouchPoints,
  'lang=' + navigator.language,
  'tz=' + Intl.DateTimeFormat().resolvedOptions().timeZone,
].join('\\n');
</script>`,
      ),
    /** Loads /probe.js from `localhost`: the same server, another origin to the browser. */
    '/cross': (_url, req) =>
      page(
        'Cross',
        `<main><article><h1>Cross-origin script</h1>${PROSE}<p id="probe">not loaded</p></article></main>` +
          `<script src="http://localhost:${(req.headers.host ?? '').split(':')[1]}/probe.js"></script>`,
      ),
    '/links': () =>
      page(
        'Links',
        `<main><article><h1>Links</h1>${PROSE}
<p><a href="/echo">echo</a> <a href="/tagged?x=1">tagged</a> <a href="https://example.org/away">away</a> <a href="/echo">echo again</a></p>
<img src="/pixel.png" alt="pixel"><img src="/other.png" alt="other"><img src="/pixel.png" alt="pixel again">
<img src="data:image/png;base64,${PIXEL.toString('base64')}" alt="inline"></article></main>`,
      ),
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    requests.push({ path: url.pathname, search: url.search, headers: req.headers });
    if (url.pathname === '/pixel.png' || url.pathname === '/other.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      return void res.end(PIXEL);
    }
    if (url.pathname === '/probe.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      return void res.end('document.getElementById("probe").textContent = "probe loaded";');
    }
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/echo', 'cache-control': 'no-store' });
      return void res.end();
    }
    if (url.pathname === '/counter-visits') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return void res.end(JSON.stringify({ visits: counters.get(url.search) ?? 0 }));
    }
    const render = pages[url.pathname];
    if (!render) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('not found');
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(render(url, req));
  });
  const listening = await listenLocal(server);
  return {
    ...listening,
    requests,
    hits: (path) => requests.filter((r) => r.path === path).length,
    counterVisits: (search) => counters.get(search) ?? 0,
    requestsTo: (path) => requests.filter((r) => r.path === path),
  };
}
