import { BatchesRepository, createDb, DocumentsRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import { type DefinedWorker, QueueProducer, RETRY_BUDGET_FACTOR, workerDefiner } from '@wcs/queues';
import { createRendererFromEnv } from '@wcs/renderer';
import { batchItemProcessor } from './batch-item.processor';
import { BatchReconciler } from './batch-reconciler';
import { createDocumentIndexer } from './document-indexer';
import type { ScrapeWorkerEnv } from './env';
import { scrapeProcessor } from './scrape.processor';

export interface RunningScrapeWorker {
  workers: DefinedWorker[];
  reconciler: BatchReconciler;
  close(): Promise<void>;
}

/** Wire the scrape worker: queues `scrape` and `scrape-batch`, plus the batch reconciler. */
export async function startScrapeWorker(env: ScrapeWorkerEnv, logger: Logger): Promise<RunningScrapeWorker> {
  const db = createDb(env.DATABASE_URL);
  const batches = new BatchesRepository(db);
  const producer = new QueueProducer(env.REDIS_URL, env.QUEUE_PREFIX, { logger });
  const index = createDocumentIndexer({ documents: new DocumentsRepository(db), logger });
  const renderer = createRendererFromEnv(env, logger);
  const define = workerDefiner(env, logger, { concurrency: env.WORKER_CONCURRENCY });
  // All attempts of a batch item share one budget (docs/reliability/job-budgets.md); a scrape's
  // deadline comes with its payload (when the gateway stops waiting).
  const itemBudgetMs = RETRY_BUDGET_FACTOR * env.BATCH_ITEM_TIMEOUT_MS;
  const workers = [
    define('scrape', scrapeProcessor(renderer, index, logger)),
    define(
      'scrape-batch',
      batchItemProcessor(
        { batches, renderer, logger, index },
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
  return {
    workers,
    reconciler,
    async close() {
      await reconciler.stop();
      await Promise.allSettled(workers.map((w) => w.close()));
      await renderer.close();
      await producer.close();
      await db.close();
    },
  };
}
