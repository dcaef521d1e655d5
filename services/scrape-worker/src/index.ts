export { BatchReconciler } from './batch-reconciler';
export { loadScrapeWorkerEnv, scrapeWorkerEnvSchema, type ScrapeWorkerEnv } from './env';
export { startScrapeWorker, type RunningScrapeWorker } from './scrape-worker';
