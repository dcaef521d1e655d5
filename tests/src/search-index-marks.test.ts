/**
 * SearchIndexMarks of @wcs/queues against the real Redis: a search waits for the marks of its
 * account made before it started (not later ones, not another account's), gives up at its bound,
 * and ignores (and removes) a dead worker's stale marks. With the indexer: pages announced close
 * together share one mark, which goes with the last of them.
 */
import { randomUUID } from 'node:crypto';
import { createDb, type Db, DocumentsRepository } from '@wcs/db';
import { createRedisConnection, type RedisClient, type SearchIndexMark, SearchIndexMarks } from '@wcs/queues';
import { SearchIndexer } from '@wcs/search';
import { createTestAccount, pollUntil, TEST_DATABASE_URL, TEST_REDIS_URL } from './harness';

let redis: RedisClient;
let db: Db;
beforeAll(() => {
  redis = createRedisConnection(TEST_REDIS_URL, 'worker');
  db = createDb(TEST_DATABASE_URL, { poolSize: 2 });
});
afterAll(async () => {
  await redis.quit();
  await db.close();
});

const prefix = () => `t-${randomUUID().slice(0, 8)}`;

describe('SearchIndexMarks', () => {
  it('settles at once without marks; waits for earlier marks only, and only its account’s', async () => {
    const marks = new SearchIndexMarks(redis, prefix());
    const [a, b] = [randomUUID(), randomUUID()];
    expect(await marks.settled(a, 10_000)).toBe(true);

    const early = await marks.add(a);
    await marks.add(b); // another account's: never waited for by a
    let done = false;
    // Same connection: the search's snapshot reaches Redis before the later mark below.
    const search = marks.settled(a, 60_000).then((r) => {
      done = true;
      return r;
    });
    const late = await marks.add(a);
    expect(done).toBe(false);
    await marks.remove([early]);
    expect(await search).toBe(true);
    // The later mark is still there: a search started now waits for it.
    expect(late.accountId).toBe(a);
    expect(await marks.settled(a, 20)).toBe(false);
    await marks.remove([late]);
    expect(await marks.settled(a, 60_000)).toBe(true);
  });

  it('gives up at its bound while a mark stays', async () => {
    const marks = new SearchIndexMarks(redis, prefix(), { pollMs: 5 });
    const account = randomUUID();
    await marks.add(account);
    expect(await marks.settled(account, 30)).toBe(false);
  });

  it('a dead worker’s mark is ignored once stale, and removed', async () => {
    const p = prefix();
    const marks = new SearchIndexMarks(redis, p, { staleMs: 1 });
    const account = randomUUID();
    const t = Date.now();
    await marks.add(account);
    await pollUntil(async () => (Date.now() > t + 5 ? true : undefined), 1_000, 2);
    expect(await marks.settled(account, 60_000)).toBe(true);
    // Expired with its TTL (staleMs) or removed by the search: either way nothing is left.
    expect(await redis.zcard(`${p}:search-pending:{${account}}`)).toBe(0);
  });

  it('with the indexer: a written page is in the index once its mark is gone; a dropped one leaves none', async () => {
    const marks = new SearchIndexMarks(redis, prefix());
    const documents = new DocumentsRepository(db);
    // A long linger: the page sits in the queue until idle() or close() writes it.
    const indexer = new SearchIndexer(
      documents,
      { warn: () => undefined },
      { pending: marks, lingerMs: 600_000 },
    );
    const { accountId } = await createTestAccount({ credits: 0 });
    const url = 'https://marks.test/written';
    const announced = await indexer.announce(accountId, url, { markdown: 'zeppelin hangar', metadata: {} });
    let settled = false;
    const search = marks.settled(accountId, 600_000).then((r) => {
      settled = r;
      return r;
    });
    await announced?.write();
    expect(settled).toBe(false);
    const dropped = await indexer.announce(accountId, 'https://marks.test/dropped', {
      markdown: 'never reported',
      metadata: {},
    });
    await dropped?.drop();
    await indexer.idle();
    expect(await search).toBe(true);
    expect((await documents.search({ accountId, query: 'zeppelin', limit: 5 })).map((h) => h.url)).toEqual([
      url,
    ]);
    // Nothing left behind: the next search does not wait at all.
    expect(await marks.settled(accountId, 0)).toBe(true);
    expect(await documents.get(accountId, 'https://marks.test/dropped')).toBeNull();
    await indexer.close();
  });

  it('a reserved announcement holds searches from before its page exists until it is written, taken back or not indexed', async () => {
    const marks = new SearchIndexMarks(redis, prefix());
    const documents = new DocumentsRepository(db);
    const indexer = new SearchIndexer(
      documents,
      { warn: () => undefined },
      { pending: marks, lingerMs: 600_000 },
    );
    const { accountId } = await createTestAccount({ credits: 0 });
    // Reserved, then the page is scraped: a search started in between waits for it.
    const reserved = indexer.reserve(accountId);
    const failed = indexer.reserve(accountId);
    const empty = indexer.reserve(accountId);
    const url = 'https://marks.test/reserved';
    const filled = await reserved.fill(url, { markdown: 'dirigible mooring', metadata: {} });
    expect(filled).toBeDefined();
    let settled = false;
    const search = marks.settled(accountId, 600_000).then((r) => {
      settled = r;
      return r;
    });
    await filled?.write();
    // The failed scrape takes its announcement back; a page with nothing to index too.
    await failed.drop();
    expect(await empty.fill('https://marks.test/empty', { markdown: '  ', metadata: {} })).toBeUndefined();
    expect(settled).toBe(false);
    await indexer.idle();
    expect(await search).toBe(true);
    expect((await documents.search({ accountId, query: 'dirigible', limit: 5 })).map((h) => h.url)).toEqual([
      url,
    ]);
    expect(await marks.settled(accountId, 0)).toBe(true);
    await expect(reserved.fill(url, { markdown: 'again', metadata: {} })).rejects.toThrow(/used twice/);
    await indexer.close();
  });

  it('pages announced close together share one mark; it goes with the last of them, and a later page makes its own', async () => {
    /** The real marks, counting the marks made. */
    class CountingMarks extends SearchIndexMarks {
      made = 0;
      override add(accountId: string): Promise<SearchIndexMark> {
        this.made++;
        return super.add(accountId);
      }
    }
    const marks = new CountingMarks(redis, prefix());
    const documents = new DocumentsRepository(db);
    const indexer = new SearchIndexer(
      documents,
      { warn: () => undefined },
      // Every announcement below is made well within the window.
      { pending: marks, lingerMs: 600_000, shareMarksMs: 600_000 },
    );
    const { accountId } = await createTestAccount({ credits: 0 });
    const other = (await createTestAccount({ credits: 0 })).accountId;
    const page = (word: string) => ({ markdown: `${word} observatory`, metadata: {} });
    const first = await indexer.announce(accountId, 'https://marks.test/shared/1', page('first'));
    const second = await indexer.announce(accountId, 'https://marks.test/shared/2', page('second'));
    const reserved = indexer.reserve(accountId);
    await indexer.announce(other, 'https://marks.test/shared/other', page('other'));
    // One mark for the account's three pages, one for the other account's.
    const third = await reserved.fill('https://marks.test/shared/3', page('third'));
    expect(marks.made).toBe(2);

    let settled = false;
    const search = marks.settled(accountId, 600_000).then((r) => {
      settled = r;
      return r;
    });
    await first?.write();
    await second?.drop();
    // Written to the queue, not to the index; the third page still holds the mark too.
    expect(await marks.settled(accountId, 0)).toBe(false);
    await indexer.idle();
    // The first page is in the index; the third still holds the shared mark, and a page announced
    // meanwhile joins it.
    expect(settled).toBe(false);
    expect(await marks.settled(accountId, 0)).toBe(false);
    const joined = await indexer.announce(accountId, 'https://marks.test/shared/5', page('fifth'));
    expect(marks.made).toBe(2);
    await third?.drop();
    expect(await marks.settled(accountId, 0)).toBe(false);
    await joined?.drop();
    expect(await search).toBe(true);
    expect(await marks.settled(accountId, 0)).toBe(true);

    // Every holder is gone: the next page makes a mark of its own, which a search waits for.
    const later = await indexer.announce(accountId, 'https://marks.test/shared/4', page('fourth'));
    expect(marks.made).toBe(3);
    expect(await marks.settled(accountId, 0)).toBe(false);
    await later?.write();
    await indexer.idle();
    expect(await marks.settled(accountId, 0)).toBe(true);
    expect(
      (await documents.search({ accountId, query: 'observatory', limit: 10 })).map((h) => h.url).sort(),
    ).toEqual(['https://marks.test/shared/1', 'https://marks.test/shared/4']);
    await indexer.close();
  });
});
