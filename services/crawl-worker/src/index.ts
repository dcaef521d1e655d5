export { CrawlContexts } from './crawl-contexts';
export { type CrawlPageDeps, crawlPageProcessor } from './crawl-page.processor';
export { CrawlReconciler } from './crawl-reconciler';
export { type RunningCrawlWorker, startCrawlWorker } from './crawl-worker';
export { type CrawlWorkerEnv, crawlWorkerEnvSchema, loadCrawlWorkerEnv } from './env';
export { HostSlots } from './host-slots';
export { type RunningMapWorker, startMapWorker } from './map-worker';
export { loadMapWorkerEnv, type MapWorkerEnv, mapWorkerEnvSchema } from './map-worker.env';
export { RobotsCache } from './robots-cache';
