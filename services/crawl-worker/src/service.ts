import type { SharedDb } from '@wcs/db';
import { createRendererFromEnv } from '@wcs/renderer';
import type { ServiceDefinition } from '@wcs/runtime';
import type { SharedWorkerResources } from '@wcs/scraper';
import { type RunningCrawlWorker, startCrawlWorker } from './crawl-worker';
import { type CrawlWorkerEnv, loadCrawlWorkerEnv } from './env';
import { type RunningMapWorker, startMapWorker } from './map-worker';

/** The crawl-worker process's two workers: crawls, and the `map` queue. */
export interface RunningCrawlService {
  crawl: RunningCrawlWorker;
  map: RunningMapWorker;
  close(): Promise<void>;
}

/** The crawl worker (with the map worker) as a process runs it: its own or the one-process mode's. */
export const crawlWorkerService: ServiceDefinition<
  CrawlWorkerEnv,
  RunningCrawlService,
  SharedWorkerResources & SharedDb
> = {
  service: 'crawl-worker',
  loadEnv: loadCrawlWorkerEnv,
  async start(env, logger, shared) {
    // One Chromium pool for both workers (the process's, or one of this service's own), so the two
    // start together: each start is mostly waits on Redis, which overlap.
    const renderer = shared?.renderer ?? createRendererFromEnv(env, logger);
    const ownRenderer = renderer === shared?.renderer ? undefined : renderer;
    const [crawlStart, mapStart] = await Promise.allSettled([
      startCrawlWorker(env, logger, { ...shared, renderer }),
      startMapWorker(env, logger, { renderer }),
    ]);
    if (crawlStart.status === 'rejected' || mapStart.status === 'rejected') {
      // The one that started is closed, then the renderer; the first failure is what the start says.
      if (mapStart.status === 'fulfilled') await mapStart.value.close().catch(() => undefined);
      if (crawlStart.status === 'fulfilled') await crawlStart.value.close().catch(() => undefined);
      await ownRenderer?.close().catch(() => undefined);
      throw crawlStart.status === 'rejected' ? crawlStart.reason : (mapStart as PromiseRejectedResult).reason;
    }
    const crawl = crawlStart.value;
    const map = mapStart.value;
    logger.info(
      { concurrency: env.WORKER_CONCURRENCY, hostConcurrency: env.CRAWL_HOST_CONCURRENCY },
      'crawl worker started',
    );
    return {
      crawl,
      map,
      // Both workers first, then the renderer they share when it is this service's own.
      async close() {
        await map.close();
        await crawl.close();
        await ownRenderer?.close();
      },
    };
  },
};
