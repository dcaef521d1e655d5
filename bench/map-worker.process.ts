/** The map worker alone in its own process, so bench:map can measure its memory. */
import { createLogger } from '../packages/logger/src';
import { startMapWorker } from '../services/crawl-worker/src/map-worker';
import { loadMapWorkerEnv } from '../services/crawl-worker/src/map-worker.env';

const env = loadMapWorkerEnv();
const logger = createLogger({ service: 'map-worker', level: env.LOG_LEVEL });
startMapWorker(env, logger).then(
  (running) => {
    const stop = () => void running.close().then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    process.send?.('ready');
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
