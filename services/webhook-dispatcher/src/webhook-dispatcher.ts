import { createDb, MonitorsRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import { createSafeDispatcher } from '@wcs/net';
import { type DefinedWorker, workerDefiner } from '@wcs/queues';
import type { WebhookDispatcherEnv } from './env';
import { webhookProcessor } from './webhook.processor';

export interface RunningWebhookDispatcher {
  worker: DefinedWorker;
  close(): Promise<void>;
}

/** The `webhook` queue's consumer. */
export async function startWebhookDispatcher(
  env: WebhookDispatcherEnv,
  logger: Logger,
): Promise<RunningWebhookDispatcher> {
  const db = createDb(env.DATABASE_URL);
  const dispatcher = createSafeDispatcher({
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
    connectTimeoutMs: Math.min(env.FETCH_CONNECT_TIMEOUT_MS, env.WEBHOOK_TIMEOUT_MS),
  });
  const worker = workerDefiner(env, logger, { concurrency: env.WORKER_CONCURRENCY })(
    'webhook',
    webhookProcessor(
      { monitors: new MonitorsRepository(db), dispatcher, logger },
      {
        timeoutMs: env.WEBHOOK_TIMEOUT_MS,
        allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
        userAgent: env.USER_AGENT,
      },
    ),
  );
  return {
    worker,
    async close() {
      await worker.close();
      await dispatcher.close().catch(() => undefined);
      await db.close();
    },
  };
}
