/**
 * A crawl that could not fetch its start page and crawled nothing else ends `failed`
 * (stop reason `error`, the start page's code in `error`), not `done`, and bills nothing; a crawl
 * whose start page failed but that crawled another page still ends `done`.
 */
import { loadCrawlWorkerEnv, type RunningCrawlWorker, startCrawlWorker } from '@wcs/crawl-worker';
import { createLogger } from '@wcs/logger';
import { type FixtureSite, startFixtureSite } from '@wcs/testing';
import { ledgerOf, startCrawl, waitForCrawl } from './crawl-helpers';
import { balanceOf, createTestAccount, type Stack, startStack } from './harness';

let open: Stack;
/**
 * A gateway that admits loopback URLs with a crawl worker that refuses them (production's address
 * policy): the start page is refused at fetch time, as when a name resolves to a private address
 * only after the gateway checked it. (The gateway's own check at creation is tested with it.)
 */
let strict: Stack;
let strictWorker: RunningCrawlWorker;
const sites: FixtureSite[] = [];

async function site(opts: Parameters<typeof startFixtureSite>[0] = {}): Promise<FixtureSite> {
  const s = await startFixtureSite({ pages: 5, ...opts });
  sites.push(s);
  return s;
}

const env = { WORKER_CONCURRENCY: '4', CRAWL_PAGE_TIMEOUT_MS: '5000' };

beforeAll(async () => {
  open = await startStack({ worker: false, crawlWorker: true, env });
  strict = await startStack({ worker: false, env });
  strictWorker = await startCrawlWorker(
    loadCrawlWorkerEnv({ ...strict.env, ALLOW_PRIVATE_TARGETS: 'false' }),
    createLogger({ service: 'test', level: 'silent' }),
  );
});
afterAll(async () => {
  await strictWorker?.close();
  await open?.close();
  await strict?.close();
  await Promise.all(sites.map((s) => s.close()));
});

async function expectNothingBilled(accountId: string): Promise<void> {
  expect(await balanceOf(accountId)).toBe(100);
  expect((await ledgerOf(accountId)).filter((r) => r.reason.startsWith('crawl'))).toEqual([]);
}

describe('a crawl whose start page is forbidden or fails', () => {
  it('a private start address: failed with TARGET_FORBIDDEN, nothing fetched or billed', async () => {
    const s = await site();
    const account = await createTestAccount({ credits: 100 });
    const id = await startCrawl(strict.url, account.auth, { url: `${s.url}/tree`, maxDepth: 2 });
    const end = await waitForCrawl(strict.url, id, account.auth);
    expect(end).toMatchObject({ status: 'failed', stopReason: 'error', completed: 0, failed: 1 });
    expect(end.error).toMatch(/^The start page could not be crawled \(TARGET_FORBIDDEN\): /);
    expect(end.failedPages).toEqual([
      expect.objectContaining({ url: `${s.url}/tree`, code: 'TARGET_FORBIDDEN' }),
    ]);
    expect(end.pages).toEqual([]);
    expect(s.requests).toEqual([]);
    await expectNothingBilled(account.accountId);
  });

  it('a start URL robots.txt disallows: failed with TARGET_FORBIDDEN, the page never requested', async () => {
    const s = await site({ robotsTxt: 'User-agent: *\nDisallow: /tree\n' });
    const account = await createTestAccount({ credits: 100 });
    const id = await startCrawl(open.url, account.auth, { url: `${s.url}/tree`, maxDepth: 2 });
    const end = await waitForCrawl(open.url, id, account.auth);
    expect(end).toMatchObject({ status: 'failed', stopReason: 'error', completed: 0 });
    expect(end.error).toMatch(/^The start page could not be crawled \(TARGET_FORBIDDEN\): robots\.txt/);
    expect(s.requests.filter((r) => r.path.startsWith('/tree'))).toEqual([]);
    await expectNothingBilled(account.accountId);
  });

  it('every seed refused (start page 404, sitemap pages 404): failed with the start page’s code', async () => {
    const s = await site({ sitemapPaths: ['/gone-1', '/gone-2'] });
    const account = await createTestAccount({ credits: 100 });
    const id = await startCrawl(open.url, account.auth, { url: `${s.url}/404`, maxDepth: 2 });
    const end = await waitForCrawl(open.url, id, account.auth);
    expect(end).toMatchObject({ status: 'failed', stopReason: 'error', completed: 0, failed: 3 });
    expect(end.error).toMatch(/^The start page could not be crawled \(TARGET_HTTP_ERROR\): /);
    expect(end.failedPages.map((p) => p.code)).toEqual([
      'TARGET_HTTP_ERROR',
      'TARGET_HTTP_ERROR',
      'TARGET_HTTP_ERROR',
    ]);
    await expectNothingBilled(account.accountId);
  });

  it('a failed start page but other pages crawled: done, billed for those pages only', async () => {
    const s = await site({ sitemapPaths: ['/tree/1'] });
    const account = await createTestAccount({ credits: 100 });
    const id = await startCrawl(open.url, account.auth, {
      url: `${s.url}/404`,
      maxDepth: 2,
      maxPages: 2,
    });
    const end = await waitForCrawl(open.url, id, account.auth);
    // The failed start page does not count against maxPages: /tree/1's first link takes its place.
    expect(end).toMatchObject({ status: 'done', completed: 2, creditsUsed: 2 });
    expect(end.error).toBeUndefined();
    expect(end.pages.map((p) => p.url)).toEqual([`${s.url}/tree/1`, `${s.url}/tree/1/1`]);
    expect(end.failedPages[0]).toMatchObject({ url: `${s.url}/404`, code: 'TARGET_HTTP_ERROR' });
    expect(await balanceOf(account.accountId)).toBe(98);
  });
});
