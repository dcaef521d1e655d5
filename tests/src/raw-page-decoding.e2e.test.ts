/**
 * scrapeDocument hands a fetched answer's bytes to its content thread, which decodes them and runs
 * the checks the event loop ran before on the decoded text (the JavaScript check of `auto`, the
 * fetch ladder's wall check) ahead of the conversion. What callers see must not change: charsets
 * are decoded by the same precedence, the page cache stores (and serves back) the decoded text,
 * walls still fail TARGET_BLOCKED after the ladder, and a page that needs JavaScript is still
 * rendered by the browser.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb, type Db, PageCacheRepository } from '@wcs/db';
import { TargetBlockedError } from '@wcs/errors';
import { createRendererFromEnv, type Renderer } from '@wcs/renderer';
import { loadScrapeWorkerEnv } from '@wcs/scrape-worker';
import { ContentPool, scrapeDocument } from '@wcs/scraper';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './harness';

const PROSE =
  'The harbour committee met on Tuesday to discuss the new ferry timetable, which residents had asked for since spring. ';
const ARTICLE = `<main><article><h1>Ferry timetable</h1><p>${PROSE.repeat(6)}</p><p>Café owners welcomed the change: “finally”.</p></article></main>`;

const pages: Record<string, { type: string; status?: number; body: Buffer }> = {
  '/latin1': {
    type: 'text/html',
    body: Buffer.from(
      `<html><head><meta charset="windows-1252"><title>Caf\u00e9</title></head><body>${ARTICLE.replace('“finally”', 'finally')}</body></html>`,
      'latin1',
    ),
  },
  '/bom': {
    type: 'text/html; charset=utf-8',
    body: Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`<html><head><title>Café</title></head><body>${ARTICLE}</body></html>`, 'utf8'),
    ]),
  },
  '/wall': {
    type: 'text/html',
    status: 403,
    body: Buffer.from(
      '<html><head><title>Just a moment...</title></head><body><div id="challenge-form">' +
        '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></div></body></html>',
    ),
  },
  '/shell': {
    type: 'text/html; charset=utf-8',
    body: Buffer.from(
      '<html><head><title>App</title></head><body><div id="root"></div>' +
        `<script>document.getElementById('root').innerHTML = '<article><h1>Rendered</h1><p>${PROSE.repeat(3)}</p></article>';</script></body></html>`,
    ),
  },
};

let server: Server;
let base: string;
let db: Db;
let renderer: Renderer;
let pool: ContentPool;

beforeAll(async () => {
  server = createServer((req, res) => {
    const page = pages[(req.url ?? '/').split('?')[0] ?? '/'];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(page.status ?? 200, { 'content-type': page.type, 'content-length': page.body.length });
    res.end(page.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  db = createDb(TEST_DATABASE_URL, { poolSize: 2 });
  renderer = createRendererFromEnv(
    loadScrapeWorkerEnv({
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'silent',
      BROWSER_MAX_PAGES: '1',
      // The wall never clears: a short wait for it (the ladder's wait has its own e2e).
      BROWSER_CHALLENGE_WAIT_MS: '500',
    }),
  );
  pool = new ContentPool({ threads: 1, idleTimeoutMs: 5_000, taskTimeoutMs: 30_000, heapMb: 256 });
});
afterAll(async () => {
  await pool?.close();
  await renderer?.close();
  await db?.close();
  await new Promise((r) => server?.close(r));
});

const scrape = (path: string, extra: { maxAge?: number } = {}) =>
  scrapeDocument(
    { renderer, pool },
    {
      url: `${base}${path}?k=${randomUUID()}`,
      format: 'markdown',
      onlyMainContent: true,
      timeoutMs: 30_000,
      cache: new PageCacheRepository(db),
      ...(extra.maxAge ? { page: { maxAge: extra.maxAge } } : {}),
    },
  );

describe('a fetched page is decoded and checked in its content thread', () => {
  it('decodes the charset the markup declares; the page cache keeps the decoded text', async () => {
    const url = `${base}/latin1?k=${randomUUID()}`;
    const cache = new PageCacheRepository(db);
    const req = { url, format: 'markdown' as const, onlyMainContent: true, timeoutMs: 30_000, cache };
    const first = await scrapeDocument({ renderer, pool }, req);
    expect(first.engine).toBe('fetch');
    expect(first.data.markdown).toContain('Café owners welcomed the change');
    expect(first.data.metadata.title).toBe('Café');
    const again = await scrapeDocument({ renderer, pool }, { ...req, page: { maxAge: 600_000 } });
    expect(again.data.metadata.cacheState).toBe('hit');
    expect(again.data.markdown).toBe(first.data.markdown);
  });

  it('a UTF-8 BOM is not part of the text, fresh or from the cache', async () => {
    const fresh = await scrape('/bom');
    expect(fresh.data.metadata.title).toBe('Café');
    expect(fresh.data.markdown).toContain('“finally”');
    const url = `${base}/bom?k=${randomUUID()}`;
    const cache = new PageCacheRepository(db);
    const req = { url, format: 'markdown' as const, onlyMainContent: true, timeoutMs: 30_000, cache };
    await scrapeDocument({ renderer, pool }, req);
    const hit = await scrapeDocument({ renderer, pool }, { ...req, page: { maxAge: 600_000 } });
    expect(hit.data.metadata.cacheState).toBe('hit');
    expect(hit.data.metadata.title).toBe('Café');
    expect(hit.data.markdown).toBe(fresh.data.markdown);
  });

  it('a wall found by the thread drives the ladder: the browser is asked, then TARGET_BLOCKED', async () => {
    const err = await scrape('/wall').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetBlockedError);
    const details = (err as TargetBlockedError).details as {
      reason: string;
      attempts?: Array<{ engine: string }>;
    };
    expect(details.reason).toBe('challenge');
    expect(details.attempts?.map((a) => a.engine)).toEqual(['fetch', 'browser']);
  });

  it('a page that needs JavaScript is rendered by the browser', async () => {
    const out = await scrape('/shell');
    expect(out.engine).toBe('browser');
    expect(out.data.markdown).toContain('harbour committee');
  });
});
