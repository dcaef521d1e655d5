/**
 * A local stand-in for a SearXNG instance: `GET /search?q=…&format=json&pageno=N&language=…`
 * answered in SearXNG's JSON format from a results list the test controls. Misconfigurations a
 * real instance shows are reproducible: json format disabled (403), limiter (429), an HTML page,
 * every engine failing. Listens on 127.0.0.1 with a random port.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocal } from './local-server';

export interface SearxngFixtureResult {
  url: string;
  title: string;
  content?: string;
}

export interface SearxngFixtureOptions {
  /** Results for a query (all pages); default: none. */
  results?: SearxngFixtureResult[] | ((query: string) => SearxngFixtureResult[]);
  /** Results per page (SearXNG's default is about 10). */
  perPage?: number;
  /** `json` missing from search.formats: SearXNG answers 403 to format=json. */
  jsonDisabled?: boolean;
  /** Bot limiter on: 429. */
  rateLimited?: boolean;
  /** Answer an HTML page with 200 (a wrong SEARXNG_URL pointing at some web site). */
  html?: boolean;
  /** Every engine failed: empty results plus `unresponsive_engines`. */
  enginesDown?: boolean;
  /** Answer this late (ms). */
  delayMs?: number;
}

export interface SearxngFixture {
  url: string;
  /** Query parameters of every /search request, in arrival order. */
  requests: Array<Record<string, string>>;
  /** Replace the behaviour (tests share one server). */
  configure(o: SearxngFixtureOptions): void;
  close(): Promise<void>;
}

export async function startSearxngFixture(initial: SearxngFixtureOptions = {}): Promise<SearxngFixture> {
  let o: SearxngFixtureOptions = initial;
  const requests: Array<Record<string, string>> = [];
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, status: number, body: string, type: string) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname !== '/search') return send(res, 404, '<h1>Not Found</h1>', 'text/html');
    requests.push(Object.fromEntries(u.searchParams));
    if (o.html) return send(res, 200, '<!DOCTYPE html><html><body>Welcome</body></html>', 'text/html');
    if (o.rateLimited) return send(res, 429, 'Too Many Requests', 'text/plain');
    if (u.searchParams.get('format') !== 'json' || o.jsonDisabled)
      return send(res, 403, 'Forbidden', 'text/plain');
    const q = u.searchParams.get('q') ?? '';
    const all = o.enginesDown ? [] : typeof o.results === 'function' ? o.results(q) : (o.results ?? []);
    const perPage = o.perPage ?? 10;
    const pageno = Math.max(1, Number(u.searchParams.get('pageno') ?? 1) || 1);
    const page = all.slice((pageno - 1) * perPage, pageno * perPage);
    const body = {
      query: q,
      number_of_results: all.length,
      results: page.map((r, i) => ({
        url: r.url,
        title: r.title,
        content: r.content ?? '',
        engine: 'fixture',
        engines: ['fixture'],
        positions: [(pageno - 1) * perPage + i + 1],
        score: 1 / (i + 1),
        category: 'general',
        parsed_url: (() => {
          const p = new URL(r.url);
          return [p.protocol.replace(':', ''), p.host, p.pathname, '', p.search.replace('?', ''), ''];
        })(),
      })),
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: o.enginesDown
        ? [
            ['duckduckgo', 'timeout'],
            ['brave', 'HTTP error'],
          ]
        : [],
    };
    send(res, 200, JSON.stringify(body), 'application/json');
  };

  const server = createServer((req, res) => {
    if (!o.delayMs) return answer(req, res);
    const t = setTimeout(() => {
      timers.delete(t);
      answer(req, res);
    }, o.delayMs);
    timers.add(t);
  });
  const listening = await listenLocal(server, timers);
  return {
    url: listening.url,
    requests,
    configure(next) {
      o = next;
    },
    close: listening.close,
  };
}
