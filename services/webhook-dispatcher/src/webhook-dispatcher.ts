import { queueKeyPrefix, redisTarget } from '@wcs/config';
import { JobWebhooksRepository, type SharedDb, serviceDb, WebhookDeliveriesRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import { createSafeDispatcher } from '@wcs/net';
import { type DefinedWorker, QueueProducer, workerDefiner } from '@wcs/queues';
import type { WebhookDispatcherEnv } from './env';
import { jobWebhookProcessor } from './job-webhook.processor';
import { JobWebhookRelay } from './job-webhook-relay';
import { webhookProcessor } from './webhook.processor';

export interface RunningWebhookDispatcher {
  worker: DefinedWorker;
  /** The `job-webhook` queue's consumer (crawl and batch webhooks). */
  jobWorker: DefinedWorker;
  relay: JobWebhookRelay;
  close(): Promise<void>;
}

/** The `webhook` (monitor changes) and `job-webhook` (crawls, batches) queues' consumers, plus the outbox relay. */
export async function startWebhookDispatcher(
  env: WebhookDispatcherEnv,
  logger: Logger,
  shared: SharedDb = {},
): Promise<RunningWebhookDispatcher> {
  const db = serviceDb(env, shared);
  // Parsed once here; every Redis user of the process gets the target and the prefix its keys carry.
  const target = redisTarget(env);
  const prefix = queueKeyPrefix(target, env.QUEUE_PREFIX);
  const dispatcher = createSafeDispatcher({
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
    connectTimeoutMs: Math.min(env.FETCH_CONNECT_TIMEOUT_MS, env.WEBHOOK_TIMEOUT_MS),
  });
  const deliveries = new WebhookDeliveriesRepository(db);
  const webhooks = new JobWebhooksRepository(db);
  const producer = new QueueProducer(target, prefix, { logger });
  const define = workerDefiner({ ...env, redis: target }, logger, { concurrency: env.WORKER_CONCURRENCY });
  const post = {
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
    userAgent: env.USER_AGENT,
  };
  const worker = define('webhook', webhookProcessor({ deliveries, dispatcher, logger }, post));
  const jobWorker = define(
    'job-webhook',
    jobWebhookProcessor(
      { webhooks, secret: (accountId) => deliveries.webhookSecret(accountId), dispatcher, logger },
      { ...post, maxAttempts: env.JOB_WEBHOOK_MAX_ATTEMPTS, retryDelayMs: env.JOB_WEBHOOK_RETRY_DELAY_MS },
    ),
  );
  const relay = new JobWebhookRelay(
    { webhooks, producer, logger },
    { intervalMs: env.JOB_WEBHOOK_RELAY_INTERVAL_MS, staleMs: env.JOB_WEBHOOK_STALE_MS },
  );
  relay.start();
  return {
    worker,
    jobWorker,
    relay,
    async close() {
      await relay.stop();
      await Promise.allSettled([worker.close(), jobWorker.close()]);
      await producer.close();
      await dispatcher.close().catch(() => undefined);
      if (!shared.db) await db.close();
    },
  };
}
