import { queueKeyPrefix, redisTarget } from '@wcs/config';
import {
  BatchesRepository,
  createScreenshotStore,
  DocumentsRepository,
  PageCacheRepository,
  PageHistoryRepository,
  type SharedDb,
  serviceDb,
} from '@wcs/db';
import { createPageModel, pageModelSettings, providerFromEnv } from '@wcs/llm';
import type { Logger } from '@wcs/logger';
import {
  type DefinedWorker,
  enqueueJobWebhooks,
  JobSecrets,
  QueueProducer,
  RETRY_BUDGET_FACTOR,
  SearchIndexMarks,
  scrapePayload,
  UploadStore,
  workerDefiner,
} from '@wcs/queues';
import { createRendererFromEnv } from '@wcs/renderer';
import { ContentPool, contentPoolOptions, type SharedWorkerResources } from '@wcs/scraper';
import { SearchIndexer } from '@wcs/search';
import { AccountSlots, WaitingAccounts, withAccountShare } from './account-slots';
import { batchItemProcessor } from './batch-item.processor';
import { BatchReconciler } from './batch-reconciler';
import { createDocumentIndexer } from './document-indexer';
import type { ScrapeWorkerEnv } from './env';
import { startRetentionSweep } from './retention-sweep';
import { scrapeProcessor } from './scrape.processor';

export interface RunningScrapeWorker {
  workers: DefinedWorker[];
  /** Converts its pages; closed by `close`. */
  contentPool: ContentPool;
  reconciler: BatchReconciler;
  close(): Promise<void>;
}

/** Wire the scrape worker: queues `scrape` and `scrape-batch`, plus the batch reconciler. */
export async function startScrapeWorker(
  env: ScrapeWorkerEnv,
  logger: Logger,
  shared: SharedWorkerResources & SharedDb = {},
): Promise<RunningScrapeWorker> {
  const db = serviceDb(env, shared);
  // Parsed once here; every Redis user of the process gets the target and the prefix its keys carry.
  const target = redisTarget(env);
  const prefix = queueKeyPrefix(target, env.QUEUE_PREFIX);
  const producer = new QueueProducer(target, prefix, { logger });
  // Webhook events get their dispatch jobs as soon as their transaction commits.
  const batches = new BatchesRepository(db, { onWebhookEvents: enqueueJobWebhooks(producer, logger) });
  const searchMarks = SearchIndexMarks.connect(target, prefix);
  const indexer = new SearchIndexer(new DocumentsRepository(db), logger, { pending: searchMarks });
  const index = createDocumentIndexer(indexer);
  const renderer = shared.renderer ?? createRendererFromEnv(env, logger);
  const pool = shared.contentPool ?? new ContentPool(contentPoolOptions(env));
  const screenshots = createScreenshotStore(env, db);
  const pageCache = new PageCacheRepository(db);
  const pageHistory = new PageHistoryRepository(db);
  const stores = { cache: pageCache, screenshots, history: pageHistory };
  const secrets = JobSecrets.connect(target, prefix);
  // The `summary` format's model; without one that format answers 503 MODEL_NOT_CONFIGURED.
  const model = createPageModel(providerFromEnv(env), pageModelSettings(env));
  const uploads = UploadStore.connect(target, prefix);
  const define = workerDefiner({ ...env, redis: target }, logger, { concurrency: env.WORKER_CONCURRENCY });
  // All attempts of a batch item share one budget (docs/reliability/job-budgets.md); a scrape's
  // deadline comes with its payload (when the gateway stops waiting).
  const itemBudgetMs = RETRY_BUDGET_FACTOR * env.BATCH_ITEM_TIMEOUT_MS;
  // One account's scrapes cannot hold every slot while another account's scrape waits behind
  // them in the queue (docs/reliability/content.md).
  const scrapeOwner = scrapePayload.pick({ accountId: true });
  const waitingScrapes = new WaitingAccounts(
    producer,
    'scrape',
    (data) => scrapeOwner.safeParse(data).data?.accountId,
  );
  const scrapeSlots = new AccountSlots({
    concurrency: env.WORKER_CONCURRENCY,
    othersWaiting: (account) => waitingScrapes.othersThan(account),
  });
  const workers = [
    define(
      'scrape',
      withAccountShare(
        scrapeSlots,
        (p) => p.accountId,
        scrapeProcessor({ renderer, pool, model }, index, logger, { ...stores, secrets, uploads }),
      ),
    ),
    define(
      'scrape-batch',
      batchItemProcessor(
        { batches, renderer, pool, model, logger, index, stores },
        {
          itemTimeoutMs: env.BATCH_ITEM_TIMEOUT_MS,
          maxStarts: env.BATCH_ITEM_MAX_STARTS,
        },
      ),
      // Every attempt of an item shares this budget (the processor's ctx.deadlineAt).
      { budgetMs: itemBudgetMs },
    ),
  ];
  const reconciler = new BatchReconciler(
    { batches, producer, logger },
    { intervalMs: env.RECONCILE_INTERVAL_MS, minAgeMs: env.RECONCILE_MIN_AGE_MS },
  );
  reconciler.start();
  const sweep = startRetentionSweep({ screenshots, pageCache, pageHistory, env, logger });
  // A shared pool is warmed by whoever made it, once every service of its process has started.
  if (!shared.contentPool) pool.warmUpIfWanted();
  return {
    workers,
    contentPool: pool,
    reconciler,
    async close() {
      await reconciler.stop();
      await sweep.close();
      await Promise.allSettled(workers.map((w) => w.close()));
      if (!shared.renderer) await renderer.close();
      if (!shared.contentPool) await pool.close();
      await indexer.close();
      await searchMarks.close();
      await secrets.close();
      await uploads.close();
      await producer.close();
      if (!shared.db) await db.close();
    },
  };
}
