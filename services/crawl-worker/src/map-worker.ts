import type { Logger } from '@wcs/logger';
import { createSafeDispatcher } from '@wcs/net';
import { workerDefiner } from '@wcs/queues';
import { createRendererFromEnv, type Renderer } from '@wcs/renderer';
import { mapProcessor } from './map.processor';
import type { MapWorkerEnv } from './map-worker.env';

export interface RunningMapWorker {
  close(): Promise<void>;
}

/**
 * The `map` queue's worker. Pass `shared.renderer` to reuse the crawl worker's renderer (one
 * Chromium pool per process); otherwise it creates and closes its own.
 */
export async function startMapWorker(
  env: MapWorkerEnv,
  logger: Logger,
  shared: { renderer?: Renderer } = {},
): Promise<RunningMapWorker> {
  const renderer = shared.renderer ?? createRendererFromEnv(env, logger);
  const dispatcher = createSafeDispatcher({
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
    connectTimeoutMs: env.FETCH_CONNECT_TIMEOUT_MS,
  });
  const mapLogger = logger.child({ queue: 'map' });
  const worker = workerDefiner(env, logger, { concurrency: env.MAP_WORKER_CONCURRENCY })(
    'map',
    mapProcessor({
      renderer,
      dispatcher,
      logger: mapLogger,
      settings: {
        userAgent: env.USER_AGENT,
        shallowPages: env.MAP_SHALLOW_PAGES,
        concurrency: env.MAP_CONCURRENCY,
        pageTimeoutMs: env.MAP_PAGE_TIMEOUT_MS,
        sitemapMaxFiles: env.MAP_SITEMAP_MAX_FILES,
        robotsMaxOrigins: env.MAP_ROBOTS_MAX_ORIGINS,
      },
    }),
  );
  await worker.worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      if (!shared.renderer) await renderer.close();
      await dispatcher.close();
    },
  };
}
