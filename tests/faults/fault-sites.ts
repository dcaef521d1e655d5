import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fixtureArticle, listenLocal, type TreeOptions, treePage } from '@wcs/testing';

export interface SiteRequest {
  /** Path and query string, as requested. */
  key: string;
  path: string;
  at: number;
  /** When the response was sent (unset: never answered, e.g. the client died first). */
  answeredAt?: number;
  /** The client's address (which host fetched it, when the stack spans network namespaces). */
  from?: string;
}

/** Resolves with the first request (past or future) matching `pred`; rejects after `timeoutMs`. */
function whenRequest(
  seen: SiteRequest[],
  events: EventEmitter,
  pred: (r: SiteRequest, all: SiteRequest[]) => boolean,
  timeoutMs: number,
  what: string,
): Promise<SiteRequest> {
  const found = seen.find((r) => pred(r, seen));
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const onRequest = (r: SiteRequest) => {
      if (!pred(r, seen)) return;
      clearTimeout(timer);
      events.off('request', onRequest);
      resolve(r);
    };
    const timer = setTimeout(() => {
      events.off('request', onRequest);
      reject(new Error(`${what}: not within ${timeoutMs} ms`));
    }, timeoutMs);
    events.on('request', onRequest);
  });
}

function article(n: number): string {
  const a = fixtureArticle(n);
  const body = a.paragraphs.map((p) => `<p>${p}</p>`).join('\n');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${a.title}</title></head>
<body><main><article><h1>${a.title}</h1>\n${body}\n</article></main></body></html>`;
}

function monitorPage(version: number): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Prices</title></head>
<body><main><h1>Prices</h1><p>The basic plan is at version ${version} of our price list and includes
email support for every customer, with answers within one working day.</p></main></body></html>`;
}

/**
 * The faults' target site: articles (`/page/n`), a crawl tree (`/tree/…`), a monitored page
 * (`/monitor`). Every request is recorded (path + query) and announced, so a fault is injected
 * when the site has seen what it waits for, and the responses in flight at that moment are known
 * (those are the only ones allowed to be fetched twice).
 */
export class CountingSite {
  readonly requests: SiteRequest[] = [];
  private readonly events = new EventEmitter();
  /** Every answer waits this long (ms): keeps work in flight long enough to kill it there. */
  delayMs = 0;
  monitorVersion = 1;
  url = '';
  private closeServer: () => Promise<void> = async () => undefined;

  /** `tree`: the crawl tree's shape (default 3 × 3 levels); `host`: the address to listen on. */
  constructor(private readonly shape: { tree?: TreeOptions; host?: string } = {}) {}

  async start(): Promise<this> {
    const timers = new Set<NodeJS.Timeout>();
    const server = createServer((req, res) => this.handle(req, res, timers));
    const listening = await listenLocal(server, timers, this.shape.host);
    this.url = listening.url;
    this.closeServer = listening.close;
    return this;
  }

  hits(key: string): number {
    return this.requests.filter((r) => r.key === key).length;
  }

  /** Keys of requests in flight at some point in [from, to]: the work a fault may interrupt. */
  inFlightDuring(from: number, to: number): Set<string> {
    return new Set(
      this.requests
        .filter((r) => r.at <= to && (r.answeredAt === undefined || r.answeredAt >= from))
        .map((r) => r.key),
    );
  }

  when(pred: (r: SiteRequest, all: SiteRequest[]) => boolean, timeoutMs: number, what: string) {
    return whenRequest(this.requests, this.events, pred, timeoutMs, what);
  }

  close(): Promise<void> {
    return this.closeServer();
  }

  private handle(req: IncomingMessage, res: ServerResponse, timers: Set<NodeJS.Timeout>): void {
    const u = new URL(req.url ?? '/', 'http://x');
    const r: SiteRequest = {
      key: `${u.pathname}${u.search}`,
      path: u.pathname,
      at: Date.now(),
      from: req.socket.remoteAddress,
    };
    this.requests.push(r);
    const send = (status: number, body: string, type = 'text/html; charset=utf-8') => {
      if (res.destroyed) return;
      r.answeredAt = Date.now();
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    let answer: () => void;
    const pageMatch = /^\/page\/(\d+)$/.exec(u.pathname);
    const tree = treePage(u.pathname, this.shape.tree ?? { branching: 3, depth: 3 });
    if (u.pathname === '/robots.txt') answer = () => send(200, 'User-agent: *\nAllow: /\n', 'text/plain');
    else if (pageMatch) answer = () => send(200, article(Number(pageMatch[1])));
    else if (tree) answer = () => send(tree.status, tree.html);
    else if (u.pathname === '/monitor') answer = () => send(200, monitorPage(this.monitorVersion));
    else answer = () => send(404, '<!DOCTYPE html><html><body><p>Not found</p></body></html>');
    // robots.txt and sitemaps answer at once: only page work is slowed down.
    const slow = this.delayMs > 0 && u.pathname !== '/robots.txt' && !u.pathname.endsWith('.xml');
    if (!slow) {
      this.events.emit('request', r);
      answer();
      return;
    }
    const t = setTimeout(() => {
      timers.delete(t);
      answer();
    }, this.delayMs);
    timers.add(t);
    this.events.emit('request', r);
  }
}

export interface ReceivedWebhook {
  monitorId: string;
  detectedAt: string;
  at: number;
}

/**
 * The monitors' webhook receiver. `holdNext` keeps the next POST unanswered (the dispatcher is
 * then mid-delivery: the receiver has the body, the sender has no answer yet).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly events = new EventEmitter();
  holdNext = false;
  url = '';
  private closeServer: () => Promise<void> = async () => undefined;

  constructor(private readonly host?: string) {}

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body: { monitorId?: string; detectedAt?: string } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // recorded with empty fields: a malformed delivery still counts as one
        }
        const w = { monitorId: body.monitorId ?? '', detectedAt: body.detectedAt ?? '', at: Date.now() };
        this.received.push(w);
        const hold = this.holdNext;
        this.holdNext = false;
        this.events.emit('webhook', w);
        if (!hold) res.writeHead(200).end('ok');
      });
    });
    const listening = await listenLocal(server, new Set(), this.host);
    this.url = listening.url;
    this.closeServer = listening.close;
    return this;
  }

  when(pred: (w: ReceivedWebhook) => boolean, timeoutMs: number): Promise<ReceivedWebhook> {
    const found = this.received.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const on = (w: ReceivedWebhook) => {
        if (!pred(w)) return;
        clearTimeout(timer);
        this.events.off('webhook', on);
        resolve(w);
      };
      const timer = setTimeout(() => {
        this.events.off('webhook', on);
        reject(new Error(`webhook: none within ${timeoutMs} ms`));
      }, timeoutMs);
      this.events.on('webhook', on);
    });
  }

  close(): Promise<void> {
    return this.closeServer();
  }
}
