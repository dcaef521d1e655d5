export { BatchReconciler } from './batch-reconciler';
export { loadScrapeWorkerEnv, type ScrapeWorkerEnv, scrapeWorkerEnvSchema } from './env';
export { type RunningScrapeWorker, startScrapeWorker } from './scrape-worker';
export { scrapeWorkerService } from './service';
