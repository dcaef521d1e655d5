/**
 * A service for ../health-server.test.ts, run as a child process (`node --import tsx`): runService
 * with HEALTH_PORT from the environment, a start() that takes FIXTURE_START_MS and a close step
 * that takes FIXTURE_CLOSE_MS, so the test can watch readiness through start and shutdown.
 */
import { runService } from '../run-service';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const env = process.env;

runService({
  service: 'health-fixture',
  loadEnv: () => ({ LOG_LEVEL: 'silent', HEALTH_PORT: Number(env.HEALTH_PORT), HEALTH_HOST: '127.0.0.1' }),
  start: async ({ shutdown }) => {
    await sleep(Number(env.FIXTURE_START_MS ?? 0));
    shutdown.add('slow-close', async () => {
      process.stdout.write('closing\n');
      await sleep(Number(env.FIXTURE_CLOSE_MS ?? 0));
    });
    process.stdout.write('started\n');
  },
});
