/**
 * The core of `pnpm test:faults` in the default run: one cheap row (SIGKILL the scrape-worker
 * mid-batch) through the same harness — separate service processes, a private Redis, a fresh
 * database — so a change that breaks the harness or the recovery shows up here, not only in the
 * long command.
 */
import { batchFaults } from '../faults/batch-faults';
import { FaultDatabases } from '../faults/fault-databases';
import { runFault } from '../faults/fault-runner';
import { formatFaultTable, rowPassed } from '../faults/fault-table';
import { type PrivateRedis, startPrivateRedis } from '../faults/private-redis';
import { TEST_DATABASE_URL } from './harness';

let redis: PrivateRedis;
const databases = new FaultDatabases(TEST_DATABASE_URL);
beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(async () => {
  await databases.dropAll();
  await redis?.stop();
});

it('SIGKILL scrape-worker mid-batch: every item done once, billed once, monitor still scheduled', async () => {
  const fault = batchFaults.find((f) => f.name === 'SIGKILL scrape-worker mid-batch');
  if (!fault) throw new Error('fault row missing');
  const row = await runFault(fault, {
    redis,
    databases,
    databaseLabel: 'core',
    // The processes this row needs (the monitor is the standing one every row checks).
    services: ['gateway', 'scrape-worker', 'monitor-scheduler'],
  });
  if (!rowPassed(row)) throw new Error(formatFaultTable([row]));
  expect(row).toMatchObject({
    terminal: true,
    lost: 0,
    runTwice: 0,
    creditsOk: true,
    monitorsScheduled: true,
  });
}, 90_000);
