import type { CrawlsRepository, FrontierCandidate } from '@wcs/db';
import { collectSitemapUrls, fetchRobots, pathDepth, type Robots, urlKey } from '@wcs/discovery';
import { toServiceError } from '@wcs/errors';
import type { Logger } from '@wcs/logger';
import type { Dispatcher } from '@wcs/net';
import type { Job, JobContext, PayloadOf, QueueProducer } from '@wcs/queues';
import type { ContentPool } from '@wcs/scraper';
import { frontierKey, LinkFilter } from './link-filter';
import { enqueuePages, feedWindow, type QueueWindow, removePageJobs } from './page-jobs';
import type { RobotsCache } from './robots-cache';

export interface CrawlStartSettings {
  userAgent: string;
  robotsTimeoutMs: number;
  sitemapMaxUrls: number;
}

export interface CrawlStartDeps {
  crawls: CrawlsRepository;
  producer: QueueProducer;
  /** The crawl's queue window: the start page takes it alone, the rest waits for it. */
  queueWindow: QueueWindow;
  dispatcher: Dispatcher;
  robots: RobotsCache;
  logger: Logger;
  /** The pages' content pool: its threads are started while the crawl starts (content-warm-up.ts). */
  pool?: ContentPool;
}

/**
 * `crawl` jobs: robots.txt (stored on the crawl, with its Crawl-delay), then the frontier's seeds —
 * the start URL at depth 0 and sitemap URLs (robots `Sitemap:` lines, else /sitemap.xml) at their
 * path depth below the start URL (`pathDepth`; deeper than maxDepth = left out; none with
 * `sitemap: "skip"`; every depth with `sitemap: "only"`, whose pages follow no links), same site,
 * allowed by the rules and robots, within maxPages, each with its sitemap `<lastmod>` (the start
 * page too when the sitemap lists it) — and the start page's job.
 * Safe to run twice: seeding inserts nothing twice and page jobs share their page's id.
 * A crawl that cannot start ends `failed` (stop reason `error`) with the code in its error text:
 * "The start page could not be crawled (TARGET_FORBIDDEN): robots.txt disallows…" or "The crawl
 * could not start (CODE): …"; a start page that fails later fails the crawl the same way when no
 * other page was crawled (`CrawlsRepository.failPage`).
 */
export function crawlStartProcessor(deps: CrawlStartDeps, s: CrawlStartSettings) {
  const fetchOpts = { dispatcher: deps.dispatcher, userAgent: s.userAgent, timeoutMs: s.robotsTimeoutMs };
  /** One warm-up at a time, whatever the number of crawls starting together. */
  let warming: Promise<number> | undefined;
  return async (
    payload: PayloadOf<'crawl'>,
    job: Job,
    ctx?: JobContext,
  ): Promise<{ crawlId: string; seeded: number }> => {
    // A cancel or shutdown stops robots.txt and sitemap reads (sitemaps keep what was read).
    const signal = ctx?.signal;
    const crawl = await deps.crawls.getById(payload.crawlId);
    if (!crawl || (crawl.status !== 'pending' && crawl.status !== 'processing')) {
      return { crawlId: payload.crawlId, seeded: 0 };
    }
    const o = crawl.options;
    // Threads that idled out load their code while robots.txt, the sitemaps and the start page are
    // read, instead of after, when every page waits for them.
    const pool = deps.pool;
    if (pool && !warming && pool.threadCount < pool.options.threads)
      warming = pool.warmUp(1).finally(() => {
        warming = undefined;
      });
    try {
      let robots: Robots | null = null;
      let robotsTxt: string | null = null;
      if (!o.ignoreRobotsTxt) {
        const r = await fetchRobots(crawl.url, { ...fetchOpts, ...(signal ? { signal } : {}) });
        if (r.error)
          deps.logger.info({ crawlId: crawl.crawlId, error: r.error }, 'robots.txt unreadable; allowing all');
        robots = r.robots;
        robotsTxt = r.text;
      }
      const filter = new LinkFilter(
        { crawlId: crawl.crawlId, crawlUrl: crawl.url, robotsTxt, options: o },
        deps.robots,
      );
      // The start page is always the first page (path rules pick what it leads to), but robots.txt binds it too.
      if (robots && !robots.isAllowed(crawl.url)) {
        await deps.crawls.stop(
          crawl.crawlId,
          'error',
          'The start page could not be crawled (TARGET_FORBIDDEN): robots.txt disallows the start URL; nothing was crawled (set ignoreRobotsTxt to crawl it anyway)',
        );
        return { crawlId: crawl.crawlId, seeded: 0 };
      }
      const startKey = frontierKey(urlKey(crawl.url) ?? crawl.url, o);
      const seeds: FrontierCandidate[] = [{ url: crawl.url, key: startKey, depth: 0 }];
      const only = o.sitemap === 'only';
      if (o.sitemap !== 'skip' && (only || o.maxDepth >= 1) && o.maxPages > 1 && s.sitemapMaxUrls > 0) {
        const sitemaps = robots?.sitemaps.length
          ? robots.sitemaps
          : [new URL('/sitemap.xml', crawl.url).href];
        const found = await collectSitemapUrls(sitemaps, {
          ...fetchOpts,
          maxUrls: s.sitemapMaxUrls,
          ...(signal ? { signal } : {}),
        });
        // A sitemap never smuggles pages deeper than maxDepth into a crawl, unless the sitemap is
        // the crawl (`only`: maxDepth bounds link hops, and no link is followed).
        const shallow = found.urls
          .filter((u) => frontierKey(u.key, o) !== startKey)
          .map((u) => ({ ...u, depth: pathDepth(u.url, crawl.url) }))
          .filter((u) => only || u.depth <= o.maxDepth);
        seeds.push(...(await filter.accept(shallow, o.maxPages - 1)));
        // The sitemap's lastmod of the start page too, when it lists it (trustSitemapLastmod).
        const start = found.urls.find((u) => u.lastmod && frontierKey(u.key, o) === startKey);
        if (start?.lastmod && seeds[0]) seeds[0] = { ...seeds[0], lastmod: start.lastmod };
      }
      const pages = await deps.crawls.seed(crawl.crawlId, {
        robotsTxt,
        crawlDelayMs: robots?.crawlDelayMs ?? null,
        pages: seeds,
      });
      if (!pages) return { crawlId: crawl.crawlId, seeded: 0 };
      // The start page is the first page of a crawl: it takes the queue window alone, and the other
      // seeds are claimed when it has finished (crawl-page processor); a repeated start job after
      // that refills the window. Claimed before its job is added: a lost add is a stranded page.
      const start = pages.filter((p) => p.depth === 0);
      if (start.length > 0) {
        await deps.queueWindow.window.markEnqueued(start.map((p) => p.pageId));
        await enqueuePages(deps.producer, crawl.crawlId, start);
      } else await feedWindow(deps.queueWindow, crawl.crawlId);
      deps.logger.info({ crawlId: crawl.crawlId, seeded: pages.length }, 'crawl started');
      return { crawlId: crawl.crawlId, seeded: pages.length };
    } catch (err) {
      const se = toServiceError(err);
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if ((se.retryable || se.code === 'INTERNAL') && !lastAttempt) throw se;
      const skipped = await deps.crawls.stop(
        crawl.crawlId,
        'error',
        `The crawl could not start (${se.code}): ${se.message}`,
      );
      await removePageJobs(deps.producer, skipped);
      return { crawlId: crawl.crawlId, seeded: 0 };
    }
  };
}
