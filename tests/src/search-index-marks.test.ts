/**
 * SearchIndexMarks of @wcs/queues against the real Redis: a search waits for the marks of its
 * account made before it started (not later ones, not another account's), gives up at its bound,
 * and ignores (and removes) a dead worker's stale marks.
 */
import { randomUUID } from 'node:crypto';
import { createRedisConnection, SearchIndexMarks } from '@wcs/queues';
import type { Redis } from 'ioredis';
import { pollUntil, TEST_REDIS_URL } from './harness';

let redis: Redis;
beforeAll(() => {
  redis = createRedisConnection(TEST_REDIS_URL, 'worker');
});
afterAll(() => redis.quit());

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
});
