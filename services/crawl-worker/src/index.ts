export { CrawlReconciler } from './crawl-reconciler';
export { type RunningCrawlWorker, startCrawlWorker } from './crawl-worker';
export { type CrawlWorkerEnv, crawlWorkerEnvSchema, loadCrawlWorkerEnv } from './env';
export { type RunningMapWorker, startMapWorker } from './map-worker';
export { loadMapWorkerEnv, type MapWorkerEnv, mapWorkerEnvSchema } from './map-worker.env';
