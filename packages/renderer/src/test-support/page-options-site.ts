/**
 * A site for the page-options tests (cookies, headers, mobile, location, actions, screenshots) on
 * 127.0.0.1. It records every request's headers, and /echo shows them plus what the page itself
 * sees (document.cookie, navigator.language, the timezone, the user agent, the viewport).
 */
import http from 'node:http';
import { type ListeningServer, listenLocal } from '@wcs/testing';

export const CLICK_TEXT = 'Chapter two: the text behind the button';
export const SEARCH_PREFIX = 'You searched for';
export const RESULTS_PREFIX = 'Results for';

/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Long lines wrap: content wider than a phone would make mobile Chrome zoom out (innerWidth > 412). */
const page = (body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>options</title><style>pre { white-space: pre-wrap; word-break: break-all; }</style>${head}</head><body>${body}</body></html>`;

/** What /echo's script reports from inside the page. */
const CLIENT_REPORT = `<script>
document.getElementById('client').textContent = JSON.stringify({
  cookie: document.cookie,
  language: navigator.language,
  languages: navigator.languages,
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  userAgent: navigator.userAgent,
  innerWidth: window.innerWidth,
  innerHeight: window.innerHeight,
  devicePixelRatio: window.devicePixelRatio,
  maxTouchPoints: navigator.maxTouchPoints,
});
</script>`;

const PAGES: Record<string, (url: URL, req: http.IncomingMessage) => string> = {
  '/echo': (_url, req) =>
    page(
      `<pre id="server">${escapeHtml(JSON.stringify(req.headers))}</pre><pre id="client"></pre>${CLIENT_REPORT}`,
    ),
  '/click': () =>
    page(`<h1>Story</h1><button id="more">More</button><div id="out"></div>
<button class="item">a</button><button class="item">b</button><button class="item" style="display:none">hidden</button>
<script>
document.getElementById('more').addEventListener('click', () => {
  document.getElementById('out').textContent = ${JSON.stringify(CLICK_TEXT)};
});
let n = 0;
for (const b of document.querySelectorAll('.item')) b.addEventListener('click', () => {
  n++; b.setAttribute('data-clicked', 'yes'); document.title = 'clicked ' + n;
});
</script>`),
  '/type': () =>
    page(`<input id="q" autocomplete="off"><div id="out"></div>
<script>
document.getElementById('q').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') document.getElementById('out').textContent = ${JSON.stringify(SEARCH_PREFIX)} + ' ' + e.target.value;
});
</script>`),
  '/form': () => page(`<form action="/results" method="get"><input id="q" name="q"></form>`),
  '/results': (url) => page(`<h1>${RESULTS_PREFIX} ${escapeHtml(url.searchParams.get('q') ?? '')}</h1>`),
  '/late': () =>
    page(`<div id="out"></div><script>
setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'arrived late'; document.body.appendChild(p); }, 300);
</script>`),
  '/tall': (url) =>
    page(
      `<div style="height:${Number(url.searchParams.get('h') ?? '3000')}px;background:linear-gradient(#fff,#39f)">tall</div>` +
        (url.searchParams.has('bottom') ? '<p id="bottom">bottom</p>' : ''),
    ),
  '/csp': () => page('<h1>Locked down</h1>'),
  '/pictures': () => page(`<h1>Pictures</h1><img src="/pixel.png" width="50" height="50">`),
  /** Loads /probe.js from "localhost": the same server, another host to the browser. */
  '/cross': (_url, req) =>
    page(
      `<h1>Cross</h1><script src="http://localhost:${(req.headers.host ?? '').split(':')[1]}/probe.js"></script>`,
    ),
  /** Clicking #hang never returns (the page's own handler loops forever). */
  '/hang-on-click': () =>
    page(`<button id="hang">Hang</button><script>
document.getElementById('hang').addEventListener('click', () => { for (;;) {} });
</script>`),
  /** A link to the same port on 127.0.0.2 (tests refuse that address). */
  '/link-out': (_url, req) =>
    page(`<a id="out" href="http://127.0.0.2:${(req.headers.host ?? '').split(':')[1]}/plain">out</a>`),
  '/plain': () => page('<h1>Plain page</h1><p>Nothing to see.</p>'),
};

export interface PageOptionsSite extends ListeningServer {
  /** How often a path was requested. */
  hits(path: string): number;
  /** The headers of the latest request for a path (lowercased names), undefined if none. */
  lastHeaders(path: string): http.IncomingHttpHeaders | undefined;
  /** Answers every request to /gate held so far (each waits until then). */
  openGate(): void;
}

export async function startPageOptionsSite(): Promise<PageOptionsSite> {
  const hits = new Map<string, number>();
  const headers = new Map<string, http.IncomingHttpHeaders>();
  const gate: http.ServerResponse[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    headers.set(url.pathname, req.headers);
    if (url.pathname === '/gate') return void gate.push(res);
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/plain' });
      return void res.end();
    }
    if (url.pathname === '/probe.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      return void res.end('document.title = "probed";');
    }
    if (url.pathname === '/pixel.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      return void res.end(PIXEL);
    }
    const render = PAGES[url.pathname];
    if (!render) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('not found');
    }
    const answer = () => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // No script of any kind may run on /csp (executeJavascript must still work).
        ...(url.pathname === '/csp' ? { 'content-security-policy': "script-src 'none'" } : {}),
      });
      res.end(render(url, req));
    };
    // Results come slowly, so a render must wait for the page a form submission leads to.
    if (url.pathname === '/results') timers.add(setTimeout(answer, 400));
    else answer();
  });
  const listening = await listenLocal(server, timers);
  return {
    ...listening,
    hits: (path) => hits.get(path) ?? 0,
    lastHeaders: (path) => headers.get(path),
    openGate: () => {
      for (const res of gate.splice(0)) res.end('open');
    },
  };
}
