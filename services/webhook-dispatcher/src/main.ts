import { runService } from '@wcs/runtime';
import { loadWebhookDispatcherEnv } from './env';
import { startWebhookDispatcher } from './webhook-dispatcher';

runService({
  service: 'webhook-dispatcher',
  loadEnv: loadWebhookDispatcherEnv,
  start: async ({ env, logger, shutdown }) => {
    const dispatcher = await startWebhookDispatcher(env, logger);
    shutdown.add('webhook-dispatcher', () => dispatcher.close());
    logger.info({ timeoutMs: env.WEBHOOK_TIMEOUT_MS }, 'webhook dispatcher started');
  },
});
