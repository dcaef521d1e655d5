/**
 * The crawler a user would pick instead of the crawl API: Crawlee's CheerioCrawler (in this
 * process, storage in memory only, its logs off) from one start URL, enqueueing same-host links
 * whose path matches `include`, converting each page's HTML to markdown with turndown.
 */
import { CheerioCrawler, Configuration, LogLevel, log } from '@crawlee/cheerio';
import TurndownService from 'turndown';

export interface CrawleeOptions {
  startUrl: string;
  /** Tested against each link's path, like the crawl API's `includePaths`. */
  include: RegExp;
  /** Pages in flight (the site is one host: the per-host limit). */
  concurrency: number;
  /** maxRequestsPerCrawl; undefined = no cap (the crawl ends when no link is left). */
  maxPages: number | undefined;
}

export interface CrawleeResult {
  secs: number;
  /** Pages converted to markdown. */
  pages: number;
  failed: number;
  markdownChars: number;
  /** CPU time of this process (user + system) during the crawl. */
  cpuSecs: number;
}

export async function runCrawleeCrawl(o: CrawleeOptions): Promise<CrawleeResult> {
  log.setLevel(LogLevel.OFF);
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  let pages = 0;
  let failed = 0;
  let markdownChars = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: o.concurrency,
      maxConcurrency: o.concurrency,
      ...(o.maxPages !== undefined ? { maxRequestsPerCrawl: o.maxPages } : {}),
      statusMessageLoggingInterval: 3600,
      async requestHandler({ body, enqueueLinks }) {
        const md = turndown.turndown(typeof body === 'string' ? body : body.toString('utf8'));
        pages++;
        markdownChars += md.length;
        await enqueueLinks({
          strategy: 'same-hostname',
          transformRequestFunction: (req) => (o.include.test(new URL(req.url).pathname) ? req : false),
        });
      },
      failedRequestHandler() {
        failed++;
      },
    },
    config,
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await crawler.run([o.startUrl]);
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await crawler.teardown();
  return { secs, pages, failed, markdownChars, cpuSecs: (cpu.user + cpu.system) / 1e6 };
}
