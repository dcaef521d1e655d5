/**
 * The Firecrawl SDK's WebSocket watchers against the service: v2 `watcher()` for a crawl and a
 * batch, v1 `crawlUrlAndWatch`, and the socket itself through the `ws` client (auth by
 * subprotocol or Bearer header, 401 / 404 before the upgrade, the message order).
 */
import { Firecrawl, FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { WebSocket } from 'ws';
import { createTestAccount } from '../harness';
import { type FirecrawlStack, startFirecrawlStack } from './firecrawl-stack';

let s: FirecrawlStack;
let upgrades = 0;
const hadWebSocket = 'WebSocket' in globalThis;

beforeAll(async () => {
  s = await startFirecrawlStack();
  // Node 20 has no global WebSocket (22 has); the SDKs use the global one when there is one, as
  // in a browser. Without it the v2 watcher would fall back to polling the status route.
  if (!hadWebSocket) (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
  s.stack.gateway.server.on('upgrade', () => {
    upgrades++;
  });
});
afterAll(async () => {
  if (!hadWebSocket) delete (globalThis as { WebSocket?: unknown }).WebSocket;
  await s?.close();
});

const wsUrl = (path: string) => `${s.apiUrl.replace(/^http/, 'ws')}${path}`;
const sourceOf = (d: { metadata?: { sourceURL?: string } }) =>
  new URL(d.metadata?.sourceURL ?? 'x:/').pathname;

/** Every message of a socket until it closes, and how it closed. */
function collect(ws: WebSocket): Promise<{
  messages: Array<{ type: string; data?: unknown; error?: string }>;
  code: number;
  reason: string;
}> {
  const messages: Array<{ type: string; data?: unknown; error?: string }> = [];
  ws.on('message', (raw) => messages.push(JSON.parse(String(raw))));
  return new Promise((resolve, reject) => {
    ws.on('close', (code, reason) => resolve({ messages, code, reason: reason.toString() }));
    ws.on('error', reject);
  });
}

/** The HTTP status a refused upgrade answered with. */
function refusedWith(ws: WebSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => reject(new Error('the socket opened')));
    ws.on('error', () => undefined);
  });
}

describe('v2 watcher()', () => {
  it('streams a crawl: every page as a document event, then done (over a WebSocket)', async () => {
    const fc = new Firecrawl({ apiKey: s.apiKey, apiUrl: s.apiUrl });
    const started = await fc.startCrawl(`${s.site.url}/tree`, { limit: 6, sitemap: 'skip' });
    const before = upgrades;
    const watcher = fc.watcher(started.id, { kind: 'crawl', pollInterval: 1 });
    const docs: Array<{ metadata?: { sourceURL?: string } }> = [];
    let done: { status: string; id: string } | undefined;
    watcher.on('document', (d) => docs.push(d));
    watcher.on('done', (d) => {
      done ??= d;
    });
    await watcher.start();
    expect(upgrades).toBe(before + 1);
    expect(done).toMatchObject({ status: 'completed', id: started.id });
    const status = await fc.getCrawlStatus(started.id);
    expect(status.completed).toBe(6);
    // Each page once, the same pages the status route lists.
    expect(docs.map(sourceOf).sort()).toEqual(status.data.map(sourceOf).sort());
    expect(new Set(docs.map(sourceOf)).size).toBe(6);
  });

  it('streams a batch the same way', async () => {
    const fc = new Firecrawl({ apiKey: s.apiKey, apiUrl: s.apiUrl });
    const urls = [1, 3, 5].map((n) => `${s.site.url}/article/${n}`);
    const started = await fc.startBatchScrape(urls, { options: { formats: ['markdown'] } });
    const watcher = fc.watcher(started.id, { kind: 'batch', pollInterval: 1 });
    const docs: Array<{ metadata?: { sourceURL?: string } }> = [];
    let done: { status: string } | undefined;
    watcher.on('document', (d) => docs.push(d));
    watcher.on('done', (d) => {
      done ??= d;
    });
    await watcher.start();
    expect(done?.status).toBe('completed');
    expect(docs.map(sourceOf).sort()).toEqual(['/article/1', '/article/3', '/article/5']);
  });
});

describe('v1 crawlUrlAndWatch', () => {
  it('dispatches the documents and done', async () => {
    const app = new FirecrawlAppV1({ apiKey: s.apiKey, apiUrl: s.apiUrl });
    const watcher = await app.crawlUrlAndWatch(`${s.site.url}/tree`, { limit: 4, ignoreSitemap: true });
    const docs: string[] = [];
    const done = await new Promise<{ status: string }>((resolve, reject) => {
      watcher.addEventListener('document', (e) => {
        docs.push(sourceOf((e as CustomEvent).detail));
      });
      watcher.addEventListener('done', (e) => resolve((e as CustomEvent).detail));
      watcher.addEventListener('error', (e) => reject(new Error(JSON.stringify((e as CustomEvent).detail))));
    });
    expect(done.status).toBe('completed');
    // catchup re-dispatches what it holds: distinct pages are the crawl's 4.
    expect(new Set(docs).size).toBe(4);
  });
});

describe('the socket', () => {
  it('catchup first, documents, then done; the key as subprotocol or Bearer header', async () => {
    const fc = new Firecrawl({ apiKey: s.apiKey, apiUrl: s.apiUrl });
    const job = await fc.crawl(`${s.site.url}/tree`, { limit: 3, sitemap: 'skip', pollInterval: 1 });
    expect(job.status).toBe('completed');
    const id = (await fc.startCrawl(`${s.site.url}/tree`, { limit: 3, sitemap: 'skip' })).id;
    const viaProtocol = await collect(new WebSocket(wsUrl(`/v2/crawl/${id}`), s.apiKey));
    expect(viaProtocol.code).toBe(1000);
    const [first, ...rest] = viaProtocol.messages;
    expect(first?.type).toBe('catchup');
    expect(rest.at(-1)).toMatchObject({ type: 'done', data: { status: 'completed', completed: 3 } });
    const docs = [
      ...((first?.data as { data?: unknown[] } | undefined)?.data ?? []),
      ...rest.filter((m) => m.type === 'document').map((m) => m.data),
    ];
    expect(docs).toHaveLength(3);

    // A finished job: everything in catchup, then done; Bearer header instead of the subprotocol.
    const finished = await collect(
      new WebSocket(wsUrl(`/v2/crawl/${id}`), { headers: { Authorization: `Bearer ${s.apiKey}` } }),
    );
    expect(finished.messages.map((m) => m.type)).toEqual(['catchup', 'done']);
    expect((finished.messages[0]?.data as { data?: unknown[] } | undefined)?.data).toHaveLength(3);

    // v1: the end is in the close frame's reason, where the v1 SDK reads it.
    const v1 = await collect(new WebSocket(wsUrl(`/v1/crawl/${id}`), s.apiKey));
    expect(v1.messages.map((m) => m.type)).toEqual(['catchup']);
    expect(JSON.parse(v1.reason)).toEqual({ type: 'done' });
  });

  it('401 for a wrong key, 404 for an unknown or another account’s job, before the upgrade', async () => {
    const fc = new Firecrawl({ apiKey: s.apiKey, apiUrl: s.apiUrl });
    const id = (await fc.startCrawl(`${s.site.url}/tree`, { limit: 1, sitemap: 'skip' })).id;
    expect(await refusedWith(new WebSocket(wsUrl(`/v2/crawl/${id}`), 'fc-wrong-key'))).toBe(401);
    expect(await refusedWith(new WebSocket(wsUrl(`/v2/crawl/${id}`)))).toBe(401);
    const stranger = await createTestAccount({ credits: 1 });
    expect(await refusedWith(new WebSocket(wsUrl(`/v2/crawl/${id}`), stranger.apiKey))).toBe(404);
    expect(
      await refusedWith(new WebSocket(wsUrl('/v2/crawl/00000000-0000-4000-8000-000000000000'), s.apiKey)),
    ).toBe(404);
    expect(await refusedWith(new WebSocket(wsUrl(`/v2/batch/scrape/${id}`), s.apiKey))).toBe(404);
    expect(await refusedWith(new WebSocket(wsUrl('/v2/scrape'), s.apiKey))).toBe(404);
  });
});
