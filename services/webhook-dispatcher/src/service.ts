import type { SharedDb } from '@wcs/db';
import type { ServiceDefinition } from '@wcs/runtime';
import { loadWebhookDispatcherEnv, type WebhookDispatcherEnv } from './env';
import { type RunningWebhookDispatcher, startWebhookDispatcher } from './webhook-dispatcher';

/** The webhook dispatcher as a process runs it: its own (main.ts) or the one-process mode's. */
export const webhookDispatcherService: ServiceDefinition<
  WebhookDispatcherEnv,
  RunningWebhookDispatcher,
  SharedDb
> = {
  service: 'webhook-dispatcher',
  loadEnv: loadWebhookDispatcherEnv,
  async start(env, logger, shared) {
    const dispatcher = await startWebhookDispatcher(env, logger, shared);
    logger.info({ timeoutMs: env.WEBHOOK_TIMEOUT_MS }, 'webhook dispatcher started');
    return dispatcher;
  },
};
