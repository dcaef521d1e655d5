import { queueKeyPrefix, redisTarget } from '@wcs/config';
import {
  CrawlChangesRepository,
  CrawlRecoveryRepository,
  CrawlsRepository,
  CrawlWindowRepository,
  createScreenshotStore,
  DocumentsRepository,
  PageCacheRepository,
  PageHistoryRepository,
  type SharedDb,
  serviceDb,
} from '@wcs/db';
import { createPageModel, pageModelSettings, providerFromEnv } from '@wcs/llm';
import type { Logger } from '@wcs/logger';
import { createSafeDispatcher } from '@wcs/net';
import {
  createRedisConnection,
  type DefinedWorker,
  enqueueJobWebhooks,
  QueueProducer,
  RETRY_BUDGET_FACTOR,
  RedisErrorLog,
  SearchIndexMarks,
  workerDefiner,
} from '@wcs/queues';
import { createRendererFromEnv, type Renderer } from '@wcs/renderer';
import { ContentPool, contentPoolOptions, type SharedWorkerResources } from '@wcs/scraper';
import { SearchIndexer } from '@wcs/search';
import { CompletionBatcher } from './completion-batcher';
import { CrawlContexts } from './crawl-contexts';
import { crawlPageProcessor } from './crawl-page.processor';
import { CrawlReconciler } from './crawl-reconciler';
import { crawlStartProcessor } from './crawl-start.processor';
import type { CrawlWorkerEnv } from './env';
import { FrontierMemo } from './frontier-memo';
import { withGroupedHistory } from './grouped-history';
import { HostSlots } from './host-slots';
import { RefillPacer, refillEvery } from './refill-pacer';
import { RobotsCache } from './robots-cache';

/**
 * How long a released host slot waits for the host's next page in this process. A recrawl answered
 * with 304s asks for the next slot within milliseconds; a slow site's pages come later and give it
 * back. Another replica waits at most this much longer for it (it polls every 25–50 ms anyway).
 */
const HOST_SLOT_IDLE_KEEP_MS = 50;

export interface RunningCrawlWorker {
  workers: DefinedWorker[];
  reconciler: CrawlReconciler;
  /** Shared with the map worker of the same process (one Chromium pool). */
  renderer: Renderer;
  /** Converts the crawled pages; closed by `close`. */
  contentPool: ContentPool;
  close(): Promise<void>;
}

/** Wire the crawl worker: queues `crawl` (start) and `crawl-page`, plus the crawl reconciler. */
export async function startCrawlWorker(
  env: CrawlWorkerEnv,
  logger: Logger,
  shared: SharedWorkerResources & SharedDb = {},
): Promise<RunningCrawlWorker> {
  const db = serviceDb(env, shared);
  // Parsed once here; every Redis user of the process gets the target and the prefix its keys carry.
  const target = redisTarget(env);
  const prefix = queueKeyPrefix(target, env.QUEUE_PREFIX);
  const producer = new QueueProducer(target, prefix, { logger });
  // Webhook events get their dispatch jobs as soon as their transaction commits.
  const onWebhookEvents = enqueueJobWebhooks(producer, logger);
  const crawls = new CrawlsRepository(db, { onWebhookEvents });
  const redis = createRedisConnection(target, 'worker');
  new RedisErrorLog(logger).watch(redis, 'crawl');
  await redis.ping();
  const dispatcher = createSafeDispatcher({
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
    connectTimeoutMs: env.FETCH_CONNECT_TIMEOUT_MS,
  });
  const renderer = shared.renderer ?? createRendererFromEnv(env, logger);
  const pool = shared.contentPool ?? new ContentPool(contentPoolOptions(env));
  // The worker's Redis connection: announcing a page to search is one small script call.
  const indexer = new SearchIndexer(new DocumentsRepository(db), logger, {
    pending: new SearchIndexMarks(redis, prefix),
  });
  const robots = new RobotsCache({
    dispatcher,
    userAgent: env.USER_AGENT,
    timeoutMs: env.CRAWL_ROBOTS_TIMEOUT_MS,
  });
  const queueWindow = {
    window: new CrawlWindowRepository(db),
    producer,
    size: env.CRAWL_QUEUE_WINDOW,
    pacer: new RefillPacer(refillEvery(env.CRAWL_QUEUE_WINDOW)),
  };
  // A released host slot stays this worker's a moment: a crawl's next page of the host takes it
  // without two Redis round trips (the ask and the give-back).
  const slots = new HostSlots(redis, prefix, env.CRAWL_HOST_CONCURRENCY, {
    idleKeepMs: HOST_SLOT_IDLE_KEEP_MS,
  });
  const pageCache = new PageCacheRepository(db);
  const define = workerDefiner({ ...env, redis: target }, logger, { concurrency: env.WORKER_CONCURRENCY });
  const workers = [
    define(
      'crawl',
      crawlStartProcessor(
        { crawls, producer, queueWindow, dispatcher, robots, logger, pool },
        {
          userAgent: env.USER_AGENT,
          robotsTimeoutMs: env.CRAWL_ROBOTS_TIMEOUT_MS,
          sitemapMaxUrls: env.CRAWL_SITEMAP_MAX_URLS,
        },
      ),
      { concurrency: Math.min(4, env.WORKER_CONCURRENCY) },
    ),
    define(
      'crawl-page',
      crawlPageProcessor(
        {
          crawls,
          completions: new CompletionBatcher(crawls),
          changes: new CrawlChangesRepository(db),
          indexer,
          producer,
          renderer,
          pool,
          model: createPageModel(providerFromEnv(env), pageModelSettings(env)),
          slots,
          pageCacheRows: pageCache,
          contexts: new CrawlContexts({
            robots,
            stores: {
              cache: pageCache,
              screenshots: createScreenshotStore(env, db),
              history: withGroupedHistory(new PageHistoryRepository(db)),
            },
          }),
          frontier: new FrontierMemo(),
          queueWindow,
          logger,
        },
        {
          pageTimeoutMs: env.CRAWL_PAGE_TIMEOUT_MS,
          maxStarts: env.CRAWL_PAGE_MAX_STARTS,
          maxLinksPerPage: env.CRAWL_MAX_LINKS_PER_PAGE,
        },
      ),
      // All attempts of a page share one budget (docs/reliability/job-budgets.md).
      { budgetMs: RETRY_BUDGET_FACTOR * env.CRAWL_PAGE_TIMEOUT_MS },
    ),
  ];
  const reconciler = new CrawlReconciler(
    { recovery: new CrawlRecoveryRepository(db, { onWebhookEvents }), queueWindow, producer, logger },
    {
      intervalMs: env.CRAWL_RECONCILE_INTERVAL_MS,
      minAgeMs: env.CRAWL_RECONCILE_MIN_AGE_MS,
      deadlineMs: env.CRAWL_DEADLINE_MS,
    },
  );
  reconciler.start();
  // A shared pool is warmed by whoever made it, once every service of its process has started.
  if (!shared.contentPool) pool.warmUpIfWanted();
  return {
    workers,
    reconciler,
    renderer,
    contentPool: pool,
    async close() {
      await reconciler.stop();
      await Promise.allSettled(workers.map((w) => w.close()));
      await slots.close();
      if (!shared.renderer) await renderer.close();
      if (!shared.contentPool) await pool.close();
      await indexer.close();
      await producer.close();
      redis.disconnect();
      await dispatcher.close().catch(() => undefined);
      if (!shared.db) await db.close();
    },
  };
}
