import { z } from 'zod';
import { envInt as int } from './schemas';

/** Settings of `/v1/map` jobs (crawl-worker's map processor). Composed in the crawl-worker's env. */
export const discoveryEnv = z.object({
  /** Map jobs one worker process runs at the same time. */
  MAP_WORKER_CONCURRENCY: int(4, 1).describe('map jobs per crawl-worker'),
  /** Same-site pages linked from the start page that a map also fetches for their links (depth 1). */
  MAP_SHALLOW_PAGES: int(15, 0).describe('pages a map fetches for more links (depth 1)'),
  /** Shallow-crawl pages fetched at the same time within one map. */
  MAP_CONCURRENCY: int(5, 1).describe('shallow pages (`MAP_SHALLOW_PAGES`) a map fetches at once'),
  /** Budget of one page fetch in a map (start page and shallow pages); the job budget also applies. */
  MAP_PAGE_TIMEOUT_MS: int(15_000, 500).describe('budget of one page of a map'),
  /** Sitemap files (indexes included) one map reads at most. */
  MAP_SITEMAP_MAX_FILES: int(50, 1).describe('sitemap files (indexes included) one map reads'),
  /** Distinct origins whose robots.txt one map reads (subdomains); URLs of further origins are kept. */
  MAP_ROBOTS_MAX_ORIGINS: int(20, 1).describe('origins (subdomains) whose robots.txt one map reads'),
});
