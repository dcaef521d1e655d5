/**
 * Two sites on 127.0.0.1 at two ports, so two origins, for the tests of where a caller's headers
 * go. Each records the headers of every request by path. The target site ("A") serves a page that
 * loads a script, a frame, an image and a fetch() from itself and from the other site ("B"), and
 * redirects to either; B redirects back to A on request.
 */
import http from 'node:http';
import { type ListeningServer, listenLocal } from '@wcs/testing';

/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The subresources /page loads from each origin. */
export const SUBRESOURCES = ['/script.js', '/frame', '/pixel.png', '/api'] as const;

export interface RecordingSite extends ListeningServer {
  /** Headers of every request for a path so far (lowercased names), oldest first; "OPTIONS /path" for preflights. */
  seen(path: string): http.IncomingHttpHeaders[];
  /** Forget what was recorded. */
  clear(): void;
}

export interface TwoOrigins {
  /** The target: /page, /redirect?to=, and the subresources. */
  a: RecordingSite;
  /** Another origin: /landing, /back?to=, and the subresources. */
  b: RecordingSite;
  close(): Promise<void>;
}

const html = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>two origins</title></head><body>${body}</body></html>`;

/**
 * /page: every kind of subresource from both origins; `#fetched` appears once both fetch() calls
 * are answered (a render waits for it with a `wait` action).
 */
function pageOf(b: string): string {
  const from = (origin: string) =>
    `<script src="${origin}/script.js"></script><iframe src="${origin}/frame"></iframe><img src="${origin}/pixel.png" width="1" height="1">`;
  return html(`<h1>Target page</h1>${from('')}${from(b)}<script>
Promise.all([fetch('/api'), fetch('${b}/api')].map((p) => p.then((r) => r.text(), () => 'failed'))).then(() => {
  const done = document.createElement('p'); done.id = 'fetched'; done.textContent = 'fetched'; document.body.appendChild(done);
});
</script>`);
}

async function recordingSite(
  answer: (url: URL, res: http.ServerResponse) => boolean,
): Promise<RecordingSite> {
  const seen = new Map<string, http.IncomingHttpHeaders[]>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    // A CORS preflight is recorded apart (as "OPTIONS /path"): it is no request for the resource.
    if (req.method === 'OPTIONS') {
      const key = `OPTIONS ${url.pathname}`;
      seen.set(key, [...(seen.get(key) ?? []), req.headers]);
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': '*',
      });
      return void res.end();
    }
    seen.set(url.pathname, [...(seen.get(url.pathname) ?? []), req.headers]);
    const plain = { 'cache-control': 'no-store', 'access-control-allow-origin': '*' };
    if (answer(url, res)) return;
    if (url.pathname === '/redirect' || url.pathname === '/back') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/page' });
      return void res.end();
    }
    if (url.pathname === '/script.js') {
      res.writeHead(200, { ...plain, 'content-type': 'text/javascript' });
      return void res.end('void 0;');
    }
    if (url.pathname === '/pixel.png') {
      res.writeHead(200, { ...plain, 'content-type': 'image/png' });
      return void res.end(PIXEL);
    }
    if (url.pathname === '/api') {
      res.writeHead(200, { ...plain, 'content-type': 'application/json' });
      return void res.end('{"ok":true}');
    }
    if (url.pathname === '/frame' || url.pathname === '/landing') {
      res.writeHead(200, { ...plain, 'content-type': 'text/html; charset=utf-8' });
      return void res.end(html(`<h1>${url.pathname.slice(1)}</h1><p>Plain text of ${url.pathname}.</p>`));
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  const listening = await listenLocal(server);
  return {
    ...listening,
    seen: (path) => seen.get(path) ?? [],
    clear: () => seen.clear(),
  };
}

export async function startTwoOrigins(): Promise<TwoOrigins> {
  const b = await recordingSite(() => false);
  const a = await recordingSite((url, res) => {
    if (url.pathname !== '/page') return false;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(pageOf(b.url));
    return true;
  });
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
}
