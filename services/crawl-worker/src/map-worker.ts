import { redisTarget } from '@wcs/config';
import type { Logger } from '@wcs/logger';
import { createSafeDispatcher } from '@wcs/net';
import { workerDefiner } from '@wcs/queues';
import { createRendererFromEnv, type Renderer } from '@wcs/renderer';
import { type MapDeps, mapProcessor } from './map.processor';
import type { MapWorkerEnv } from './map-worker.env';
import { signalledRenderer } from './signalled-renderer';

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
  // Parsed once here; the workers tag the key prefix for it (queueKeyPrefix) themselves.
  const target = redisTarget(env);
  const renderer = shared.renderer ?? createRendererFromEnv(env, logger);
  const dispatcher = createSafeDispatcher({
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
    connectTimeoutMs: env.FETCH_CONNECT_TIMEOUT_MS,
  });
  const deps: MapDeps = {
    renderer,
    dispatcher,
    logger: logger.child({ queue: 'map' }),
    settings: {
      userAgent: env.USER_AGENT,
      shallowPages: env.MAP_SHALLOW_PAGES,
      concurrency: env.MAP_CONCURRENCY,
      pageTimeoutMs: env.MAP_PAGE_TIMEOUT_MS,
      sitemapMaxFiles: env.MAP_SITEMAP_MAX_FILES,
      robotsMaxOrigins: env.MAP_ROBOTS_MAX_ORIGINS,
    },
  };
  // The job's signal (deadline = when the gateway stops waiting, or its cancel) stops the whole map:
  // page renders, robots.txt and sitemap reads, and the CPU phase between its time slices.
  const worker = workerDefiner({ ...env, redis: target }, logger, {
    concurrency: env.MAP_WORKER_CONCURRENCY,
  })('map', (payload, job, ctx) =>
    mapProcessor({ ...deps, renderer: signalledRenderer(renderer, ctx.signal) })(payload, job, ctx),
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
