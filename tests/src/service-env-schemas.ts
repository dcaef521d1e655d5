import { crawlWorkerEnvSchema } from '@wcs/crawl-worker';
import { extractWorkerEnvSchema } from '@wcs/extract-worker';
import { gatewayEnvSchema } from '@wcs/gateway';
import { monitorSchedulerEnvSchema } from '@wcs/monitor-scheduler';
import type { ServiceName } from '@wcs/runtime';
import { scrapeWorkerEnvSchema } from '@wcs/scrape-worker';
import { webhookDispatcherEnvSchema } from '@wcs/webhook-dispatcher';

/** Each service's env schema: what it reads (service-env and k8s-manifests tests compare with it). */
export const SERVICE_ENV_SCHEMAS = {
  gateway: gatewayEnvSchema,
  'scrape-worker': scrapeWorkerEnvSchema,
  'crawl-worker': crawlWorkerEnvSchema,
  'extract-worker': extractWorkerEnvSchema,
  'monitor-scheduler': monitorSchedulerEnvSchema,
  'webhook-dispatcher': webhookDispatcherEnvSchema,
} satisfies Record<ServiceName, { shape: object }>;
