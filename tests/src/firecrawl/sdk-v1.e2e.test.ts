/**
 * The official JS SDK's feature-frozen v1 client (`FirecrawlAppV1` of `@mendable/firecrawl-js`
 * 4.42.0) against `<gateway>/firecrawl`: scrapeUrl, crawlUrl (its own waiting loop),
 * checkCrawlStatus with skip/limit and `next`, mapUrl (string links), batchScrapeUrls — which the
 * SDK polls through `GET /v1/crawl/:id`, as Firecrawl's server allows — and its errors.
 */
import { FirecrawlAppV1 } from '@mendable/firecrawl-js';
import { fixtureArticle } from '@wcs/testing';
import { balanceOf, pollUntil } from '../harness';
import { accountWithCredits, type FirecrawlStack, HOME_TITLE, startFirecrawlStack } from './firecrawl-stack';

let s: FirecrawlStack;
let app: FirecrawlAppV1;

beforeAll(async () => {
  s = await startFirecrawlStack();
  app = new FirecrawlAppV1({ apiKey: s.apiKey, apiUrl: s.apiUrl });
});
afterAll(async () => {
  await s?.close();
});

interface V1Doc {
  markdown?: string;
  html?: string;
  links?: string[];
  metadata?: { title?: string; sourceURL?: string; url?: string; statusCode?: number };
}
interface V1Job {
  success: boolean;
  status?: string;
  total?: number;
  completed?: number;
  creditsUsed?: number;
  next?: string;
  data?: V1Doc[];
  error?: string;
}

/** v1 methods answer `Response | ErrorResponse`; a failed one is a test failure with its message. */
function ok<T extends { success: boolean }>(res: T | { success: false; error: string }): T {
  if (!res.success) throw new Error(`v1 call failed: ${'error' in res ? res.error : JSON.stringify(res)}`);
  return res as T;
}

const pathOf = (d: V1Doc) => new URL(d.metadata?.sourceURL ?? d.metadata?.url ?? 'http://x/').pathname;

it('scrapeUrl returns the document at the top level with success: true, 1 credit', async () => {
  const before = await balanceOf(s.account.accountId);
  const res = ok(
    (await app.scrapeUrl(`${s.site.url}/`, { formats: ['markdown', 'html', 'links'] })) as V1Doc & {
      success: boolean;
    },
  );
  expect(res.markdown).toContain(HOME_TITLE);
  expect(res.html).toContain('<h1');
  expect(res.links).toEqual(expect.arrayContaining([`${s.site.url}/article/0`]));
  expect(res.metadata).toMatchObject({ title: HOME_TITLE, statusCode: 200 });
  expect(await balanceOf(s.account.accountId)).toBe(before - 1);
});

let crawlId = '';

it('crawlUrl waits for the crawl and returns every page', async () => {
  const job = ok(
    (await app.crawlUrl(
      `${s.site.url}/tree`,
      { limit: 5, scrapeOptions: { formats: ['markdown'] } },
      1,
    )) as V1Job,
  );
  expect(job.status).toBe('completed');
  expect(job.data).toHaveLength(5);
  expect(job.creditsUsed).toBe(5);
  expect(job.data?.map(pathOf)).toContain('/tree');
  for (const d of job.data ?? []) expect(d.markdown).toContain('Tree node');
  // crawlUrl's answer carries no id: find it through the async start to check status below.
  const started = ok(
    (await app.asyncCrawlUrl(`${s.site.url}/tree`, { limit: 5 })) as { success: boolean; id?: string },
  );
  crawlId = started.id ?? '';
  expect(crawlId).not.toBe('');
});

it('checkCrawlStatus: skip/limit pages with `next`; getAllData follows it to the end', async () => {
  const done = await waitV1(crawlId);
  expect(done).toMatchObject({ success: true, status: 'completed', total: 5, completed: 5 });
  const firstTwo = ok((await app.checkCrawlStatus(crawlId, false, undefined, 0, 2)) as V1Job);
  expect(firstTwo.data).toHaveLength(2);
  expect(firstTwo.next).toEqual(expect.stringContaining(`/firecrawl/v1/crawl/${crawlId}`));
  const all = ok((await app.checkCrawlStatus(crawlId, true)) as V1Job);
  expect(all.data).toHaveLength(5);
  expect(new Set(all.data?.map(pathOf)).size).toBe(5);
});

/** Polls checkCrawlStatus (the SDK's own status call) until the crawl is terminal. */
function waitV1(id: string): Promise<V1Job> {
  return pollUntil(
    async () => {
      const st = ok((await app.checkCrawlStatus(id)) as V1Job);
      return ['completed', 'failed', 'cancelled'].includes(st.status ?? '') ? st : undefined;
    },
    40_000,
    250,
  );
}

it('cancelCrawl stops a running crawl; checkCrawlErrors answers its shape', async () => {
  const started = ok(
    (await app.asyncCrawlUrl(`${s.site.url}/endless?page=0`, { limit: 500 })) as {
      success: boolean;
      id?: string;
    },
  );
  const id = started.id ?? '';
  const cancelled = (await app.cancelCrawl(id)) as { status?: string; success?: boolean };
  expect(cancelled.status).toBe('cancelled');
  expect((await waitV1(id)).status).toBe('cancelled');
  const errors = (await app.checkCrawlErrors(id)) as { errors?: unknown[]; robotsBlocked?: unknown[] };
  expect(Array.isArray(errors.errors)).toBe(true);
  expect(Array.isArray(errors.robotsBlocked)).toBe(true);
});

it('mapUrl returns links as plain strings', async () => {
  const res = ok(
    (await app.mapUrl(`${s.site.url}/`, { limit: 100 })) as { success: boolean; links?: string[] },
  );
  expect(res.links).toEqual(expect.arrayContaining([`${s.site.url}/article/0`, `${s.site.url}/about`]));
  for (const l of res.links ?? []) expect(typeof l).toBe('string');
  const filtered = ok(
    (await app.mapUrl(`${s.site.url}/`, { search: 'article', limit: 100 })) as {
      success: boolean;
      links?: string[];
    },
  );
  expect(filtered.links?.every((l) => l.includes('article'))).toBe(true);
});

it('batchScrapeUrls waits (through GET /v1/crawl/:id) and returns every page', async () => {
  const before = await balanceOf(s.account.accountId);
  const urls = [5, 10].map((n) => `${s.site.url}/article/${n}`);
  const job = ok((await app.batchScrapeUrls(urls, { formats: ['markdown'] }, 1)) as V1Job);
  expect(job.status).toBe('completed');
  expect(job.data).toHaveLength(2);
  for (const n of [5, 10]) {
    expect(job.data?.find((d) => pathOf(d) === `/article/${n}`)?.markdown).toContain(fixtureArticle(n).title);
  }
  expect(await balanceOf(s.account.accountId)).toBe(before - 2);
});

it('errors: a bad key is 401, an empty account 402 — FirecrawlError with statusCode', async () => {
  const bad = new FirecrawlAppV1({ apiKey: 'fc-bad', apiUrl: s.apiUrl });
  await expect(bad.scrapeUrl(`${s.site.url}/`, {})).rejects.toMatchObject({ statusCode: 401 });
  const broke = await accountWithCredits(0);
  const poor = new FirecrawlAppV1({ apiKey: broke.apiKey, apiUrl: s.apiUrl });
  const err = await poor.scrapeUrl(`${s.site.url}/`, {}).then(
    () => null,
    (e: unknown) => e as { statusCode?: number; message?: string },
  );
  expect(err?.statusCode).toBe(402);
  expect(err?.message).toMatch(/Status code: 402\. Error: .*credit/i);
});
