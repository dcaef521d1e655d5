import { queueKeyPrefix, redisTarget } from '@wcs/config';
import { MonitorChecksRepository, MonitorsRepository, type SharedDb, serviceDb } from '@wcs/db';
import { providerFromEnv } from '@wcs/llm';
import type { Logger } from '@wcs/logger';
import { type DefinedWorker, QueueProducer, workerDefiner } from '@wcs/queues';
import { createRendererFromEnv, type Renderer } from '@wcs/renderer';
import { ContentPool, contentPoolOptions, type SharedWorkerResources } from '@wcs/scraper';
import type { MonitorSchedulerEnv } from './env';
import { monitorCheckProcessor } from './monitor-check.processor';
import { MonitorReconciler } from './monitor-reconciler';
import { MonitorSchedules } from './monitor-schedules';
import { ResumeSweep } from './resume-sweep';

export interface RunningMonitorScheduler {
  schedules: MonitorSchedules;
  monitors: MonitorsRepository;
  worker: DefinedWorker;
  renderer: Renderer;
  /** Converts the checked pages; closed by `close`. */
  contentPool: ContentPool;
  sweep: ResumeSweep;
  reconciler: MonitorReconciler;
  close(): Promise<void>;
}

/**
 * Reconcile the schedulers with PostgreSQL (at once, then every MONITOR_RECONCILE_MS), and run the
 * check worker and the resume sweep.
 */
export async function startMonitorScheduler(
  env: MonitorSchedulerEnv,
  logger: Logger,
  shared: SharedWorkerResources & SharedDb = {},
): Promise<RunningMonitorScheduler> {
  const db = serviceDb(env, shared);
  // Parsed once here; every Redis user of the process gets the target and the prefix its keys carry.
  const target = redisTarget(env);
  const prefix = queueKeyPrefix(target, env.QUEUE_PREFIX);
  const monitors = new MonitorsRepository(db);
  const producer = new QueueProducer(target, prefix, { logger });
  const schedules = new MonitorSchedules(producer.queue('monitor-check'), env.MONITOR_INTERVAL_SCALE);
  const reconciler = new MonitorReconciler(
    { monitors, schedules, queue: producer.queue('monitor-check'), redis: producer.connection, logger },
    { intervalMs: env.MONITOR_RECONCILE_MS },
  );
  const rebuilt = await reconciler.runOnce({ force: true });
  logger.info(rebuilt, 'monitor schedulers reconciled with PostgreSQL');
  reconciler.start();
  const renderer = shared.renderer ?? createRendererFromEnv(env, logger);
  const pool = shared.contentPool ?? new ContentPool(contentPoolOptions(env));
  const worker = workerDefiner({ ...env, redis: target }, logger, { concurrency: env.WORKER_CONCURRENCY })(
    'monitor-check',
    monitorCheckProcessor(
      {
        monitors,
        checks: new MonitorChecksRepository(db),
        schedules,
        producer,
        renderer,
        pool,
        logger,
        judge: {
          provider: providerFromEnv(env),
          settings: {
            inputTokenBudget: env.EXTRACT_INPUT_TOKEN_BUDGET,
            maxTokens: env.EXTRACT_MAX_TOKENS,
            modelTimeoutMs: env.EXTRACT_MODEL_TIMEOUT_MS,
          },
        },
      },
      { timeoutMs: env.MONITOR_CHECK_TIMEOUT_MS },
    ),
    // Every attempt of a check shares one budget: the check's timeout plus time to record it. The
    // goal's judge gets what the fetch left of it (a longer budget kept a check stuck in a Redis
    // failover from being retried for a minute more, and its monitor skipped checks meanwhile).
    { budgetMs: env.MONITOR_CHECK_TIMEOUT_MS + 10_000 },
  );
  const sweep = new ResumeSweep(
    monitors,
    schedules,
    producer.queue('monitor-check'),
    producer.queue('webhook'),
    logger,
    {
      intervalMs: env.MONITOR_RESUME_SWEEP_MS,
      webhookRecoveryMs: env.MONITOR_WEBHOOK_RECOVERY_MS,
    },
  );
  sweep.start();
  let closing: Promise<void> | null = null;
  return {
    schedules,
    monitors,
    worker,
    renderer,
    contentPool: pool,
    sweep,
    reconciler,
    // Idempotent: tests stop a scheduler mid-file and the stack closes it again at the end.
    close() {
      closing ??= (async () => {
        await reconciler.stop();
        await sweep.stop();
        await worker.close();
        if (!shared.renderer) await renderer.close();
        if (!shared.contentPool) await pool.close();
        await producer.close();
        if (!shared.db) await db.close();
      })();
      return closing;
    },
  };
}
