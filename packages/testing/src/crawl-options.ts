import type { CrawlOptions } from '@wcs/db';

/**
 * A crawl's stored options as the gateway writes them, for tests that build crawl rows or tasks
 * directly: robots.txt ignored, markdown, main content, no delay; `over` changes what a test is about.
 */
export function testCrawlOptions(over: Partial<CrawlOptions> = {}): CrawlOptions {
  return {
    maxPages: 10,
    maxDepth: 2,
    includePaths: [],
    excludePaths: [],
    allowSubdomains: false,
    ignoreRobotsTxt: true,
    format: 'markdown',
    onlyMainContent: true,
    delayMs: 0,
    ...over,
  };
}
