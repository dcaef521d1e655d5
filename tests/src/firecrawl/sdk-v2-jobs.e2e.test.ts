/**
 * Jobs through the official JS SDK's v2 client: batch scrape and crawl with the SDK's
 * own waiting helpers, start + cancel, status paging across `next`, crawl errors, and Firecrawl
 * webhooks (started/page/completed, metadata echoed, `X-Firecrawl-Signature` verified with the
 * account's secret).
 */
import { Firecrawl } from '@mendable/firecrawl-js';
import { fixtureArticle } from '@wcs/testing';
import { balanceOf, pollUntil } from '../harness';
import {
  type FirecrawlStack,
  firecrawlSignature,
  type HookReceiver,
  startBigPageSite,
  startFirecrawlStack,
  startHookReceiver,
  webhookSecret,
} from './firecrawl-stack';

let s: FirecrawlStack;
let fc: Firecrawl;
let receiver: HookReceiver;

beforeAll(async () => {
  [s, receiver] = await Promise.all([startFirecrawlStack(), startHookReceiver()]);
  fc = new Firecrawl({ apiKey: s.apiKey, apiUrl: s.apiUrl });
});
afterAll(async () => {
  await s?.close();
  await receiver?.close();
});

const pathOf = (url: string | undefined) => (url ? new URL(url).pathname : '');
const sourceOf = (d: { metadata?: { sourceURL?: string; url?: string } }) =>
  d.metadata?.sourceURL ?? d.metadata?.url;

describe('v2 batch scrape', () => {
  it('batchScrape waits for completion and returns every page, 1 credit each', async () => {
    const before = await balanceOf(s.account.accountId);
    const urls = [2, 4, 6].map((n) => `${s.site.url}/article/${n}`);
    const job = await fc.batchScrape(urls, {
      options: { formats: ['markdown'] },
      pollInterval: 1,
      timeout: 40,
    });
    expect(job).toMatchObject({ status: 'completed', completed: 3, total: 3, creditsUsed: 3 });
    expect(job.data).toHaveLength(3);
    for (const n of [2, 4, 6]) {
      const doc = job.data.find((d) => pathOf(sourceOf(d)) === `/article/${n}`);
      expect(doc?.markdown).toContain(fixtureArticle(n).title);
    }
    expect(await balanceOf(s.account.accountId)).toBe(before - 3);
  });

  it('startBatchScrape + cancelBatchScrape: the job ends cancelled, only finished pages billed', async () => {
    const before = await balanceOf(s.account.accountId);
    const urls = Array.from({ length: 12 }, (_, i) => `${s.site.url}/article/${i}?delay=3000`);
    const started = await fc.startBatchScrape(urls, {
      options: { formats: ['markdown'] },
      webhook: { url: `${receiver.url}/cancel-hook`, events: ['failed'] },
    });
    expect(started.id).toEqual(expect.any(String));
    expect(await fc.cancelBatchScrape(started.id)).toBe(true);
    const status = await fc.getBatchScrapeStatus(started.id);
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(12);
    // Reserved up front, the unfinished items refunded by the cancel.
    await pollUntil(
      async () =>
        (await balanceOf(s.account.accountId)) === before - (status.creditsUsed ?? -1) ? true : undefined,
      10_000,
    );
    // A cancelled batch ends with Firecrawl's failed event, success: false and a reason.
    const failed = await pollUntil(
      async () => receiver.received.find((h) => h.path === '/cancel-hook' && h.body.id === started.id),
      15_000,
    );
    expect(failed.body).toMatchObject({ type: 'batch_scrape.failed', success: false });
    expect(failed.body.error).toEqual(expect.any(String));
  });
});

describe('v2 crawl', () => {
  let crawlId = '';

  it('crawl waits for completion; excludePaths and limit are honoured; 1 credit per page', async () => {
    const before = await balanceOf(s.account.accountId);
    const job = await fc.crawl(`${s.site.url}/tree`, {
      limit: 8,
      excludePaths: ['^/tree/[23]'],
      scrapeOptions: { formats: ['markdown'] },
      pollInterval: 1,
      timeout: 45,
    });
    crawlId = job.id;
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(8);
    expect(job.completed).toBe(8);
    const paths = job.data.map((d) => pathOf(sourceOf(d)));
    expect(paths).toContain('/tree');
    expect(paths.filter((p) => /^\/tree\/[23]/.test(p))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/private'))).toEqual([]); // robots.txt
    for (const d of job.data) expect(d.markdown).toMatch(/Tree node/);
    expect(job.creditsUsed).toBe(8);
    expect(await balanceOf(s.account.accountId)).toBe(before - 8);
  });

  it('maxDiscoveryDepth bounds the crawl by link depth', async () => {
    const job = await fc.crawl(`${s.site.url}/tree`, {
      maxDiscoveryDepth: 1,
      limit: 50,
      pollInterval: 1,
      timeout: 30,
    });
    expect(job.status).toBe('completed');
    expect(job.data.map((d) => pathOf(sourceOf(d))).sort()).toEqual([
      '/tree',
      '/tree/1',
      '/tree/2',
      '/tree/3',
    ]);
  });

  it('status pages across `next` (cut by size): autoPaginate: false shows one page, the default gathers all', async () => {
    const big = await startBigPageSite(4, 1_200_000);
    try {
      const opts = { formats: ['markdown', 'html', 'rawHtml'] as ('markdown' | 'html' | 'rawHtml')[] };
      const job = await fc.crawl(`${big.url}/big`, {
        limit: 5,
        scrapeOptions: opts,
        pollInterval: 1,
        timeout: 45,
      });
      expect(job.status).toBe('completed');
      // The waiting helper itself followed `next`: every document is there.
      expect(job.data).toHaveLength(5);
      const first = await fc.getCrawlStatus(job.id, { autoPaginate: false });
      expect(first.next).toEqual(expect.stringContaining(`/firecrawl/v2/crawl/${job.id}`));
      expect(first.data.length).toBeGreaterThan(0);
      expect(first.data.length).toBeLessThan(5);
      const all = await fc.getCrawlStatus(job.id);
      expect(all.next).toBeNull();
      expect(new Set(all.data.map((d) => pathOf(sourceOf(d))))).toEqual(
        new Set(['/big', '/big/0', '/big/1', '/big/2', '/big/3']),
      );
      const capped = await fc.getCrawlStatus(job.id, { maxPages: 0 });
      expect(capped.data).toHaveLength(first.data.length);
    } finally {
      await big.close();
    }
  });

  it('getCrawlErrors answers the errors/robotsBlocked shape', async () => {
    const errors = await fc.getCrawlErrors(crawlId);
    expect(Array.isArray(errors.errors)).toBe(true);
    expect(Array.isArray(errors.robotsBlocked)).toBe(true);
  });

  it('startCrawl + cancelCrawl: status becomes cancelled and stays short of the limit', async () => {
    const started = await fc.startCrawl(`${s.site.url}/endless?page=0`, { limit: 500 });
    expect(await fc.cancelCrawl(started.id)).toBe(true);
    const status = await fc.getCrawlStatus(started.id);
    expect(status.status).toBe('cancelled');
    expect(status.completed).toBeLessThan(500);
  });

  it('an unknown crawl id is a 404 SdkError', async () => {
    await expect(fc.getCrawlStatus('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe('v2 webhooks (Firecrawl convention)', () => {
  it('a crawl posts started, one page per page, completed; signed; metadata echoed', async () => {
    const secret = await webhookSecret(s.baseUrl, s.apiKey);
    const job = await fc.crawl(`${s.site.url}/tree/1`, {
      limit: 3,
      webhook: {
        url: `${receiver.url}/crawl-hook`,
        metadata: { run: 'sdk-v2' },
        events: ['started', 'page', 'completed'],
      },
      pollInterval: 1,
      timeout: 25,
    });
    expect(job.status).toBe('completed');
    const hooks = await pollUntil(async () => {
      const mine = receiver.received.filter((h) => h.path === '/crawl-hook' && h.body.id === job.id);
      return mine.some((h) => h.body.type === 'crawl.completed') && mine.length >= 5 ? mine : undefined;
    }, 20_000);
    const types = hooks.map((h) => h.body.type);
    expect(types.filter((t) => t === 'crawl.started')).toHaveLength(1);
    expect(types.filter((t) => t === 'crawl.page')).toHaveLength(3);
    expect(types.filter((t) => t === 'crawl.completed')).toHaveLength(1);
    for (const h of hooks) {
      expect(h.headers['x-firecrawl-signature']).toBe(firecrawlSignature(secret, h.raw));
      expect(h.body.metadata).toEqual({ run: 'sdk-v2' });
      expect(h.body.success).toBe(true);
    }
    const pages = hooks.filter((h) => h.body.type === 'crawl.page');
    const pageUrls = pages.flatMap((h) => (Array.isArray(h.body.data) ? h.body.data : [])).map(sourceOf);
    expect(pageUrls.map(pathOf).sort()).toEqual(job.data.map((d) => pathOf(sourceOf(d))).sort());
  });

  it('a batch posts batch_scrape.* events; only the asked events are sent', async () => {
    const secret = await webhookSecret(s.baseUrl, s.apiKey);
    const job = await fc.batchScrape([`${s.site.url}/article/8`, `${s.site.url}/article/9`], {
      webhook: { url: `${receiver.url}/batch-hook`, metadata: { n: '2' }, events: ['page', 'completed'] },
      pollInterval: 1,
      timeout: 25,
    });
    expect(job.status).toBe('completed');
    const hooks = await pollUntil(async () => {
      const mine = receiver.received.filter((h) => h.path === '/batch-hook' && h.body.id === job.id);
      return mine.some((h) => h.body.type === 'batch_scrape.completed') && mine.length >= 3
        ? mine
        : undefined;
    }, 20_000);
    expect(hooks.map((h) => h.body.type).sort()).toEqual([
      'batch_scrape.completed',
      'batch_scrape.page',
      'batch_scrape.page',
    ]);
    for (const h of hooks) {
      expect(h.headers['x-firecrawl-signature']).toBe(firecrawlSignature(secret, h.raw));
      expect(h.body.metadata).toEqual({ n: '2' });
    }
  });

  it('a webhook to a bad address is refused when the job is created', async () => {
    await expect(
      fc.startCrawl(`${s.site.url}/tree`, { limit: 1, webhook: 'ftp://example.invalid/hook' }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
