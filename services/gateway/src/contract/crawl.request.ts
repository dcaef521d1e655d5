import { jobWebhook, outputFormat, pageOptionFields } from '@wcs/queues';
import { z } from 'zod';

export const MAX_CRAWL_PAGES = 10_000;

const pathPatterns = z.array(z.string({ error: 'must be a string' })).max(20, 'at most 20 patterns');

/** The request body of POST /v1/crawl: checked by the route, described by the OpenAPI document. */
export const crawlBody = z.strictObject({
  url: z.string({ error: 'is required and must be a string' }),
  /** 0 = the start page only; link hops, or for sitemap URLs their path depth below the start URL. */
  maxDepth: z.number().int().min(0).max(1_000).default(2),
  maxPages: z.number().int().min(1).max(MAX_CRAWL_PAGES).default(100),
  /** Regular expressions on path + query (`/blog/.*`); see the README for the exact rule. */
  includePaths: pathPatterns.default([]),
  excludePaths: pathPatterns.default([]),
  allowSubdomains: z.boolean().default(false),
  /**
   * Follow links off the start URL's site too (any host), still bounded by maxPages, maxDepth, the
   * path rules, robots.txt of each host and the address policy (private hosts are refused unless
   * ALLOW_PRIVATE_TARGETS).
   */
  allowExternalLinks: z.boolean().default(false),
  ignoreRobotsTxt: z.boolean().default(false),
  format: outputFormat.default('markdown'),
  onlyMainContent: z.boolean().default(true),
  /** Politeness: at least this long between two requests of this crawl to one host. */
  delayMs: z.number().int().min(0).max(60_000).default(0),
  /**
   * `include` (default): the start URL, the site's sitemap URLs and the links found; `skip`: the
   * start URL and its links only; `only`: the start URL and the sitemap's URLs, no link followed.
   */
  sitemap: z.enum(['include', 'skip', 'only']).optional(),
  /**
   * Recrawls: a sitemap page whose `<lastmod>` is not after the account's tracked copy of it is not
   * fetched; the copy is the page (`same`, `metadata.revalidatedBy: "sitemap-lastmod"`). Needs the
   * `changeTracking` format and a sitemap (not `sitemap: "skip"`). Default false.
   */
  trustSitemapLastmod: z.boolean().optional(),
  /** One page per path: URLs that differ only in their query string are crawled once. */
  ignoreQueryParameters: z.boolean().optional(),
  /** Page options applied to every page (extensions; README "Page options"). */
  scrapeOptions: z.strictObject(pageOptionFields).optional(),
  /** Firecrawl-style events (started/page/completed/failed) POSTed to the caller. */
  webhook: jobWebhook.optional(),
});
export type CrawlBody = z.infer<typeof crawlBody>;
