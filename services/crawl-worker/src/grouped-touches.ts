import type { ChangeHistoryStore, HistoryTouch } from '@wcs/scraper';
import { GroupCommit } from './group-commit';

/** Most touches in one statement. */
const MAX_BATCH = 64;

/**
 * The account history with its 304 touches grouped (group-commit.ts): a recrawl answered 304 page
 * after page moves each row's time and validators, and the touches made while one is under way go
 * together in one statement (`touchMany`) instead of one round trip each. Each touch is still
 * awaited by its page; reads and writes pass straight through.
 */
export function withGroupedTouches(store: ChangeHistoryStore): ChangeHistoryStore {
  const group = new GroupCommit<HistoryTouch, void>({
    one: (_all, touch) => store.touch(...touch),
    many: async (_all, touches) => {
      await store.touchMany(touches);
      return touches.map(() => undefined);
    },
    maxBatch: MAX_BATCH,
  });
  return {
    get: (...a) => store.get(...a),
    getMany: (...a) => store.getMany(...a),
    put: (record) => store.put(record),
    touch: (...touch) => group.submit('', touch),
    touchMany: (touches) => store.touchMany(touches),
  };
}
