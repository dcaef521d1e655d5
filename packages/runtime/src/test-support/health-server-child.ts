/**
 * A service for ../health-server.test.ts, run as a child process (`node --import tsx`
 * health-server-child.ts <port> <startMs> <closeMs>): runService on the probe port given, a start()
 * that takes startMs and a close step that takes closeMs, so the test can watch readiness through
 * start and shutdown. Its arguments, not the environment: only packages/config reads that.
 */
import { runService } from '../run-service';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const [port = '0', startMs = '0', closeMs = '0'] = process.argv.slice(2);

runService({
  service: 'health-fixture',
  loadEnv: () => ({ LOG_LEVEL: 'silent', HEALTH_PORT: Number(port), HEALTH_HOST: '127.0.0.1' }),
  start: async () => {
    await sleep(Number(startMs));
    process.stdout.write('started\n');
    return {
      close: async () => {
        process.stdout.write('closing\n');
        await sleep(Number(closeMs));
      },
    };
  },
});
