import type { ChangeHistoryStore, ChangeRecord, HistoryTouch } from '@wcs/scraper';
import { GroupCommit } from './group-commit';

/** Most rows read or touched in one statement. */
const MAX_BATCH = 64;

/**
 * The account history with its per-page reads and 304 touches grouped (group-commit.ts): a
 * tracked crawl reads each page's row before asking the site, and a recrawl answered 304 moves
 * each row's time and validators. The reads of one account and tag, and the touches, made while
 * one of theirs is under way go together in one statement (`getMany`, `touchMany`) instead of one
 * round trip each. Each page still awaits its own; writes pass straight through.
 */
export function withGroupedHistory(store: ChangeHistoryStore): ChangeHistoryStore {
  const reads = new GroupCommit<{ accountId: string; urlKey: string; tag: string }, ChangeRecord | undefined>(
    {
      one: (_key, r) => store.get(r.accountId, r.urlKey, r.tag),
      many: async (_key, rs) => {
        const first = rs[0];
        if (!first) return [];
        const rows = await store.getMany(
          first.accountId,
          rs.map((r) => r.urlKey),
          first.tag,
        );
        return rs.map((r) => rows.get(r.urlKey));
      },
      maxBatch: MAX_BATCH,
    },
  );
  const touches = new GroupCommit<HistoryTouch, void>({
    one: (_all, touch) => store.touch(...touch),
    many: async (_all, ts) => {
      await store.touchMany(ts);
      return ts.map(() => undefined);
    },
    maxBatch: MAX_BATCH,
  });
  return {
    // Grouped by account and tag: one getMany reads rows of one account and tag.
    get: (accountId, urlKey, tag) => reads.submit(`${accountId} ${tag}`, { accountId, urlKey, tag }),
    getMany: (...a) => store.getMany(...a),
    put: (record) => store.put(record),
    touch: (...touch) => touches.submit('', touch),
    touchMany: (ts) => store.touchMany(ts),
  };
}
