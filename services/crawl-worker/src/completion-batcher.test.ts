import { rawEnv } from '@wcs/config';
import { AccountsRepository, CrawlsRepository, createDb, type Db, migrateDatabase } from '@wcs/db';
import { testCrawlOptions } from '@wcs/testing';
import { CompletionBatcher } from './completion-batcher';

const URL_ = rawEnv('DATABASE_URL') ?? 'postgresql://postgres@127.0.0.1:5432/wcs_test';
const SITE = 'https://batcher.test';

let db: Db;
let crawls: CrawlsRepository;
const created: string[] = [];

beforeAll(async () => {
  await migrateDatabase(URL_);
  db = createDb(URL_);
  crawls = new CrawlsRepository(db);
});
afterAll(async () => {
  for (const id of created) await crawls.stop(id, 'cancelled', 'test over');
  await db.close();
});

/** A running crawl of `n` seeded pages, each started (as a worker starts it). */
async function runningCrawl(n: number) {
  const { accountId } = await new AccountsRepository(db).create({ plan: 'free', credits: 100 });
  const { crawlId } = await crawls.create({
    accountId,
    url: `${SITE}/`,
    options: testCrawlOptions({ maxPages: 50, maxDepth: 3 }),
  });
  created.push(crawlId);
  const seeds = Array.from({ length: n }, (_, i) => ({
    url: `${SITE}/s${i}`,
    key: `${SITE}/s${i}`,
    depth: 0,
  }));
  const pages = (await crawls.seed(crawlId, { robotsTxt: null, crawlDelayMs: null, pages: seeds })) ?? [];
  for (const p of pages) await crawls.startPage(p.pageId);
  return { accountId, crawlId, pages };
}

/** The real repository, with its calls counted. */
function counted() {
  const calls = { alone: 0, together: [] as number[] };
  const repo = {
    completePage: (...a: Parameters<CrawlsRepository['completePage']>) => {
      calls.alone++;
      return crawls.completePage(...a);
    },
    completeEach: (...a: Parameters<CrawlsRepository['completeEach']>) => {
      calls.together.push(a[1].length);
      return crawls.completeEach(...a);
    },
  };
  return { repo, calls };
}

const completion = (url: string, statusCode = 200) => ({
  result: { markdown: `# ${url}`, metadata: {} },
  statusCode,
  finalKey: url,
  links: [],
});

describe('CompletionBatcher', () => {
  it('completes a page at once, and the pages that finished meanwhile together, each with its own outcome', async () => {
    const { accountId, crawlId, pages } = await runningCrawl(5);
    const { repo, calls } = counted();
    const batcher = new CompletionBatcher(repo);
    const outcomes = await Promise.all(
      pages.map((p) => batcher.complete(crawlId, p.pageId, completion(p.url))),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(outcomes.filter((o) => o.outcome === 'done' && o.crawlFinished)).toHaveLength(1);
    expect(calls).toEqual({ alone: 1, together: [4] });
    expect((await crawls.get(accountId, crawlId))?.status).toBe('done');
  });

  it("a batch that fails is completed page by page: one page's error is only that page's", async () => {
    const { accountId, crawlId, pages } = await runningCrawl(4);
    const { repo, calls } = counted();
    const batcher = new CompletionBatcher(repo);
    const [first, ...rest] = pages as [(typeof pages)[number], ...typeof pages];
    // A status no column holds: its statement fails, the batch's with it.
    const settled = await Promise.allSettled([
      batcher.complete(crawlId, first.pageId, completion(first.url)),
      ...rest.map((p, i) => batcher.complete(crawlId, p.pageId, completion(p.url, i === 1 ? 2 ** 40 : 200))),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(calls).toEqual({ alone: 1 + 3, together: [3] });
    const view = await crawls.get(accountId, crawlId);
    expect(view).toMatchObject({ completed: 3, creditsUsed: 3 });
  });
});
