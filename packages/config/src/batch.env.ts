import { z } from 'zod';
import { envInt as int } from './schemas';

/** Batch scrapes: the scrape-worker's own settings. Composed in services/scrape-worker/src/env.ts. */
export const batchEnv = z.object({
  /** How often the scrape worker re-enqueues batch items that Redis lost. */
  RECONCILE_INTERVAL_MS: int(30_000, 200),
  RECONCILE_MIN_AGE_MS: int(20_000, 0),
  /** Time budget of one batch item (fetch, render and conversion). */
  BATCH_ITEM_TIMEOUT_MS: int(30_000, 1000),
  /** A batch item started this many times (crashes, lost Redis) is failed instead of retried. */
  BATCH_ITEM_MAX_STARTS: int(5, 1),
});
