export { CrawlReconciler } from './crawl-reconciler';
export { type RunningCrawlWorker, startCrawlWorker } from './crawl-worker';
export { type CrawlWorkerEnv, crawlWorkerEnvSchema, loadCrawlWorkerEnv } from './env';
