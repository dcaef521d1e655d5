import { z } from 'zod';
import { envInt as int } from './schemas';

/** Batch scrapes: the scrape-worker's own settings. Composed in services/scrape-worker/src/env.ts. */
export const batchEnv = z.object({
  /** How often the scrape worker re-enqueues batch items that Redis lost. */
  RECONCILE_INTERVAL_MS: int(30_000, 200).describe(
    'how often batch items whose job vanished are re-enqueued',
  ),
  RECONCILE_MIN_AGE_MS: int(20_000, 0).describe(
    'a batch item whose job vanished is re-enqueued once it is this old',
  ),
  /** Time budget of one batch item (fetch, render and conversion). */
  BATCH_ITEM_TIMEOUT_MS: int(30_000, 1000).describe('budget of one batch item'),
  /** A batch item started this many times (crashes, lost Redis) is failed instead of retried. */
  BATCH_ITEM_MAX_STARTS: int(5, 1).describe(
    'a batch item started this often (crashes, lost Redis) is failed',
  ),
});
