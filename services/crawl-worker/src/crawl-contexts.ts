import type { CrawlOfTask, CrawlPageStart, CrawlPageTask } from '@wcs/db';
import { pageOptions, pageSecrets } from '@wcs/queues';
import type { PageStores } from '@wcs/scraper';
import { LRUCache } from 'lru-cache';
import { LinkFilter, REFUSED_MEMO_BYTES } from './link-filter';
import type { RobotsCache } from './robots-cache';

/** The crawl's `scrapeOptions` for one page: written by the gateway, parsed again at this boundary. */
function pageRequest(crawl: CrawlOfTask, stores: PageStores = {}) {
  const page = pageOptions.optional().parse(crawl.options.page);
  const secrets = pageSecrets.nullable().parse(crawl.pageSecrets);
  return {
    ...(page ? { page } : {}),
    ...(secrets ? { secrets } : {}),
    ...(stores.cache ? { cache: stores.cache } : {}),
    ...(stores.history ? { history: stores.history } : {}),
    ...(stores.screenshots ? { screenshots: { store: stores.screenshots, accountId: crawl.accountId } } : {}),
  };
}

export type PageRequest = ReturnType<typeof pageRequest>;

/** What a worker prepares once per crawl for all of its pages. */
export interface CrawlContext {
  crawl: CrawlOfTask;
  /** The page options and secrets, parsed, with the page cache and screenshot store. */
  request: PageRequest;
  /** Which of a page's links join the frontier (include/exclude rules compiled once). */
  filter: LinkFilter;
  /** When the crawl's frontier was seeded (`isSitemapSeed`), read with the first page that asks. */
  seededAt?: Promise<Date | null>;
}

/**
 * The crawls this worker is working on: each crawl's columns of a page task, read from PostgreSQL
 * with its first page here and fixed from then on (a crawl's options, robots.txt and secrets do not
 * change while it runs), with the work done on them once: options and secrets parsed, path rules
 * compiled. Later pages start with the page's own columns only (`startPageOf`). Bounded (a least
 * recently used crawl is dropped, and read again with its next page); a finished crawl is dropped.
 */
export class CrawlContexts {
  private readonly cache: LRUCache<string, CrawlContext>;

  constructor(
    private readonly deps: { robots: RobotsCache; stores?: PageStores },
    max = 1_000,
  ) {
    // Bounded by count and by what a context may hold: its robots.txt (up to 500 KB,
    // `MAX_ROBOTS_BYTES`) and its link filter's memo of refused URLs.
    this.cache = new LRUCache({
      max,
      maxSize: 64 * 1024 * 1024,
      sizeCalculation: (c) => 4_096 + REFUSED_MEMO_BYTES + (c.crawl.robotsTxt?.length ?? 0),
    });
  }

  get(crawlId: string): CrawlContext | undefined {
    return this.cache.get(crawlId);
  }

  /** The context of a task read with its crawl's columns (kept for the crawl's next pages). */
  fromTask(task: CrawlPageTask): CrawlContext {
    const crawl: CrawlOfTask = {
      accountId: task.accountId,
      crawlUrl: task.crawlUrl,
      options: task.options,
      robotsTxt: task.robotsTxt,
      crawlDelayMs: task.crawlDelayMs,
      pageSecrets: task.pageSecrets,
      ...(task.crawlCreatedAt ? { crawlCreatedAt: task.crawlCreatedAt } : {}),
    };
    const context: CrawlContext = {
      crawl,
      request: pageRequest(crawl, this.deps.stores),
      filter: new LinkFilter(
        {
          crawlId: task.crawlId,
          crawlUrl: crawl.crawlUrl,
          robotsTxt: crawl.robotsTxt,
          options: crawl.options,
        },
        this.deps.robots,
      ),
    };
    this.cache.set(task.crawlId, context);
    return context;
  }

  forget(crawlId: string): void {
    this.cache.delete(crawlId);
  }
}

/**
 * Only the crawl's sitemap led to the page (`visibility: hidden`): it is deeper than the start page
 * and joined the frontier in the seeding transaction (CrawlChangesRepository.seededAt, read once
 * per context and kept; a failed or empty read is asked again by the next page).
 */
export function isSitemapSeed(
  context: CrawlContext,
  task: Pick<CrawlPageStart, 'crawlId' | 'depth' | 'createdAt'>,
  seededAt: (crawlId: string) => Promise<Date | null>,
): Promise<boolean> {
  const createdAt = task.createdAt;
  if (task.depth === 0 || !createdAt) return Promise.resolve(false);
  const memo = context.seededAt ?? seededAt(task.crawlId);
  context.seededAt = memo;
  const forget = () => {
    if (context.seededAt === memo) context.seededAt = undefined;
  };
  return memo.then(
    (at) => {
      if (at === null) forget();
      return at !== null && at.getTime() === createdAt.getTime();
    },
    (err: unknown) => {
      forget();
      throw err;
    },
  );
}

/** A page started with `startPageOf`, with its crawl's part from the context. */
export function withCrawl(start: CrawlPageStart, context: CrawlContext): CrawlPageTask {
  return { ...start, ...context.crawl };
}
