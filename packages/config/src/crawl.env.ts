import { z } from 'zod';
import { envInt as int } from './schemas';

/** The crawl-worker's own settings (politeness, deadlines, recovery). Composed in services/crawl-worker/src/env.ts. */
export const crawlEnv = z.object({
  /** Requests in flight to one host at a time, across every crawl and every crawl-worker replica. */
  CRAWL_HOST_CONCURRENCY: int(2, 1),
  /** A crawl not finished after this long is failed (stopReason `timeout`): every crawl ends. */
  CRAWL_DEADLINE_MS: int(60 * 60 * 1000, 1000),
  /** Budget of one page (fetch, render and conversion). */
  CRAWL_PAGE_TIMEOUT_MS: int(30_000, 1000),
  /** A page started this many times (crashes, lost Redis) is failed instead of retried. */
  CRAWL_PAGE_MAX_STARTS: int(5, 1),
  /** Links taken from one page (the rest are ignored): bounds work per page on link farms. */
  CRAWL_MAX_LINKS_PER_PAGE: int(2_000, 1),
  /** Sitemap URLs read at the start of a crawl (before filtering). */
  CRAWL_SITEMAP_MAX_URLS: int(20_000, 0),
  /** robots.txt and sitemap fetch budget. */
  CRAWL_ROBOTS_TIMEOUT_MS: int(10_000, 100),
  /** How often the reconciler looks for lost page jobs, finished and overdue crawls. */
  CRAWL_RECONCILE_INTERVAL_MS: int(10_000, 100),
  /** A queued/running page untouched this long whose job is gone is enqueued again. */
  CRAWL_RECONCILE_MIN_AGE_MS: int(30_000, 0),
});
