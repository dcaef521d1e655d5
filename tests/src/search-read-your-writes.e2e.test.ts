/**
 * Read-your-writes of the embedded search: a search that starts after a scrape answered, a batch
 * item was reported done or a crawl page was listed finds that page. The index write itself runs
 * behind the answer (the indexer lingers ~100 ms to batch pages), so without the announcement the
 * searches below, sent at once, find nothing. The tests never wait for the index.
 */
import { type FixtureSite, fixtureArticle, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import { crawlStatus, startCrawl } from './crawl-helpers';
import { createTestAccount, pollUntil, type Stack, startStack, type TestAccount } from './harness';

let site: FixtureSite;
let stack: Stack;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 8 });
  stack = await startStack({ crawlWorker: true });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

/** The URLs the account's index returns for the article's title (no scraping of the hits). */
async function found(account: TestAccount, n: number): Promise<string[]> {
  const res = await request(stack.url)
    .post('/v1/search')
    .set(account.auth)
    .send({ query: fixtureArticle(n).title, num_results: 10, scrape: false });
  expect(res.status).toBe(200);
  return res.body.data.map((r: { url: string }) => r.url);
}

describe('embedded search finds what was just reported', () => {
  it('a page, right after its scrape answered', async () => {
    const account = await createTestAccount({ credits: 50 });
    for (const n of [1, 2]) {
      const url = `${site.url}/article/${n}`;
      const res = await request(stack.url).post('/v1/scrape').set(account.auth).send({ url });
      expect(res.status).toBe(200);
      expect(await found(account, n)).toContain(url);
    }
  });

  it('a batch item, right after the batch is reported done', async () => {
    const account = await createTestAccount({ credits: 50 });
    // One item: the batch is done when that item is, so nothing else may have flushed its write.
    const url = `${site.url}/article/3`;
    const start = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [url] });
    expect(start.status).toBe(202);
    // Looked at often, so the search below starts as soon as the item is reported.
    await pollUntil(
      async () => {
        const res = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
        return res.body.status === 'done' ? true : undefined;
      },
      60_000,
      5,
    );
    expect(await found(account, 3)).toContain(url);
  });

  it('a crawl page, right after it is listed', async () => {
    const account = await createTestAccount({ credits: 50 });
    const url = `${site.url}/article/5`;
    const id = await startCrawl(stack.url, account.auth, { url, maxDepth: 0, maxPages: 1 });
    await pollUntil(
      async () => ((await crawlStatus(stack.url, id, account.auth)).pages.length > 0 ? true : undefined),
      60_000,
      5,
    );
    expect(await found(account, 5)).toContain(url);
  });
});
