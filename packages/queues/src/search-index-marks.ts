/**
 * The pages of each account handed to the embedded search index and not yet written, in Redis, so
 * a search in the gateway can wait for what a worker has reported but not written yet
 * (read-your-writes; `@wcs/search`'s pending-index.ts says why). Per account: a counter and a sorted
 * set of marks scored by it. The counter orders marks and searches without comparing the clocks of
 * different hosts: a search reads the counter when it starts and waits for the marks at or below it.
 * A mark carries the time it was made, so the marks of a worker that died before writing its pages
 * are ignored (and removed) after `staleMs` instead of holding every later search to its bound.
 */
import { randomUUID } from 'node:crypto';
import { createRedisConnection, keyPrefixOn, type RedisClient, type RedisTargetInput } from './connection';

/** Structurally @wcs/search's PendingMark. */
export interface SearchIndexMark {
  accountId: string;
  mark: string;
}

export interface SearchIndexMarksOptions {
  /** A mark older than this is a dead worker's (default 60 s: far past any write under backpressure). */
  staleMs?: number;
  /** How often a waiting search looks again (default 10 ms: one small Redis read each time). */
  pollMs?: number;
}

const DEFAULT_STALE_MS = 60_000;
const DEFAULT_POLL_MS = 10;
/** Marks read per look: a search only needs to know whether any earlier one is left. */
const READ_LIMIT = 200;

// One round trip, and the counter and the set change together (both keys share a hash slot).
const ADD_SCRIPT = `
local n = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[1], n, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return n`;

// The counter when the search starts, and the marks at or below it.
const SNAPSHOT_SCRIPT = `
local n = redis.call('GET', KEYS[2])
if not n then return {} end
local marks = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', n, 'LIMIT', 0, ARGV[1])
table.insert(marks, 1, n)
return marks`;

type MarksRedis = RedisClient & {
  searchMarkAdd(set: string, counter: string, mark: string, ttlMs: number): Promise<number>;
  searchMarkSnapshot(set: string, counter: string, limit: number): Promise<string[]>;
};

export class SearchIndexMarks {
  private readonly redis: MarksRedis;
  private owned = false;
  /** Names this process's marks (with a sequence number), so two workers never make the same one. */
  private readonly origin = randomUUID().slice(0, 8);
  private seq = 0;
  private readonly staleMs: number;
  private readonly pollMs: number;

  constructor(
    redis: RedisClient,
    private readonly prefix: string,
    opts: SearchIndexMarksOptions = {},
  ) {
    this.staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
    this.pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
    redis.defineCommand('searchMarkAdd', { numberOfKeys: 2, lua: ADD_SCRIPT });
    redis.defineCommand('searchMarkSnapshot', { numberOfKeys: 2, lua: SNAPSHOT_SCRIPT });
    this.redis = redis as MarksRedis;
  }

  /** On a connection of its own (a worker's: waits for Redis); close() ends it. */
  static connect(
    redis: RedisTargetInput,
    prefix: string,
    opts: SearchIndexMarksOptions = {},
  ): SearchIndexMarks {
    const marks = new SearchIndexMarks(
      createRedisConnection(redis, 'worker'),
      keyPrefixOn(redis, prefix),
      opts,
    );
    marks.owned = true;
    return marks;
  }

  async close(): Promise<void> {
    if (this.owned) await this.redis.quit().catch(() => this.redis.disconnect());
  }

  async add(accountId: string): Promise<SearchIndexMark> {
    const mark = `${Date.now()}:${this.origin}:${++this.seq}`;
    const { set, counter } = this.keys(accountId);
    await this.redis.searchMarkAdd(set, counter, mark, this.staleMs);
    return { accountId, mark };
  }

  async remove(marks: readonly SearchIndexMark[]): Promise<void> {
    const byAccount = new Map<string, string[]>();
    for (const m of marks) byAccount.set(m.accountId, [...(byAccount.get(m.accountId) ?? []), m.mark]);
    if (byAccount.size === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [accountId, names] of byAccount) pipeline.zrem(this.keys(accountId).set, ...names);
    await pipeline.exec();
  }

  async settled(accountId: string, maxWaitMs: number, signal?: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + maxWaitMs;
    const { set, counter } = this.keys(accountId);
    const [upTo, ...first] = await this.redis.searchMarkSnapshot(set, counter, READ_LIMIT);
    if (upTo === undefined) return true;
    let left = await this.live(set, first);
    while (left > 0) {
      if (Date.now() >= deadline || signal?.aborted) return false;
      await pause(this.pollMs, signal);
      left = await this.live(set, await this.redis.zrangebyscore(set, '-inf', upTo, 'LIMIT', 0, READ_LIMIT));
    }
    return true;
  }

  /** How many of `marks` are a live worker's; a dead worker's are removed on the way. */
  private async live(set: string, marks: string[]): Promise<number> {
    const staleBefore = Date.now() - this.staleMs;
    const stale = marks.filter((m) => Number(m.slice(0, m.indexOf(':'))) < staleBefore);
    if (stale.length > 0) await this.redis.zrem(set, ...stale);
    return marks.length - stale.length;
  }

  private keys(accountId: string): { set: string; counter: string } {
    // The braces make both keys one hash slot (Redis Cluster), so the scripts may touch both.
    return {
      set: `${this.prefix}:search-pending:{${accountId}}`,
      counter: `${this.prefix}:search-pending-seq:{${accountId}}`,
    };
  }
}

/** `ms`, or until the signal fires. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
