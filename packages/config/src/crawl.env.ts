import { z } from 'zod';
import { envInt as int } from './schemas';

/** The crawl-worker's own settings (politeness, deadlines, recovery). Composed in services/crawl-worker/src/env.ts. */
export const crawlEnv = z.object({
  /** Requests in flight to one host at a time, across every crawl and every crawl-worker replica. */
  CRAWL_HOST_CONCURRENCY: int(2, 1).describe('requests in flight per host, across all crawls and replicas'),
  /** A crawl not finished after this long is failed (stopReason `timeout`): every crawl ends. */
  CRAWL_DEADLINE_MS: int(60 * 60 * 1000, 1000).describe(
    'a crawl still running after this is failed (`stopReason: timeout`)',
  ),
  /** Budget of one page (fetch, render and conversion). */
  CRAWL_PAGE_TIMEOUT_MS: int(30_000, 1000).describe('budget of one page'),
  /** A page started this many times (crashes, lost Redis) is failed instead of retried. */
  CRAWL_PAGE_MAX_STARTS: int(5, 1).describe('a page started this often (crashes, lost Redis) is failed'),
  /** Links taken from one page (the rest are ignored): bounds work per page on link farms. */
  CRAWL_MAX_LINKS_PER_PAGE: int(2_000, 1).describe('links taken from one page'),
  /** Sitemap URLs read at the start of a crawl (before filtering). */
  CRAWL_SITEMAP_MAX_URLS: int(20_000, 0).describe('sitemap URLs read at the start'),
  /** robots.txt and sitemap fetch budget. */
  CRAWL_ROBOTS_TIMEOUT_MS: int(10_000, 100).describe('robots.txt / sitemap fetch budget'),
  /** How often the reconciler looks for lost page jobs, finished and overdue crawls. */
  CRAWL_RECONCILE_INTERVAL_MS: int(10_000, 100).describe('reconciler period'),
  /** A queued/running page untouched this long whose job is gone is enqueued again. */
  CRAWL_RECONCILE_MIN_AGE_MS: int(30_000, 0).describe(
    'how long a page row may sit without a job before it is enqueued again',
  ),
  /**
   * Frontier rows of one crawl that have a crawl-page job in Redis at once; the rest wait in
   * PostgreSQL and are claimed, shallowest first, as pages finish. Bounds Redis memory per crawl
   * (~700 B a job) whatever the size of the frontier. Keep it above the pages in flight for one
   * crawl (worker replicas × WORKER_CONCURRENCY), or a crawl cannot use every worker.
   */
  CRAWL_QUEUE_WINDOW: int(1_000, 1).describe(
    'frontier rows of one crawl with a job in Redis at once (the rest wait in PostgreSQL)',
  ),
});
