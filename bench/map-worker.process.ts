/** The map worker alone in its own process, so bench:map can measure its memory. */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createLogger } from '../packages/logger/src';
import { startMapWorker } from '../services/crawl-worker/src/map-worker';
import { loadMapWorkerEnv } from '../services/crawl-worker/src/map-worker.env';

const env = loadMapWorkerEnv();
// bench:map asks for the loop's delay over IPC (map-hostile-neighbour.ts): { loopDelay, reset }.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
process.on('message', (m: { loopDelay?: boolean; reset?: boolean }) => {
  if (!m?.loopDelay) return;
  process.send?.({ maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6 });
  if (m.reset) loop.reset();
});
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
