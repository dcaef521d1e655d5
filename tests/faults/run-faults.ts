/**
 * `pnpm test:faults`: every fault of docs/reliability/faults.md against its own stack of separate
 * processes, then the table of faults × outcome. Exit code 1 when any row fails.
 *
 *   FAULTS='SIGKILL scrape-worker mid-batch' pnpm test:faults   (a subset, by name)
 */
import { batchFaults } from './batch-faults';
import { crawlFaults } from './crawl-faults';
import { FaultDatabases } from './fault-databases';
import { loadFaultOptions } from './fault-options';
import { runFault } from './fault-runner';
import type { FaultScenario } from './fault-scenario';
import { type FaultRow, formatFaultTable, rowPassed } from './fault-table';
import { interactiveFaults } from './interactive-faults';
import { monitorFaults } from './monitor-faults';
import { startPrivateRedis } from './private-redis';

export const FAULTS: FaultScenario[] = [
  ...interactiveFaults,
  ...batchFaults.filter((f) => !f.ownPostgres),
  ...crawlFaults,
  ...monitorFaults,
  ...batchFaults.filter((f) => f.ownPostgres),
];

async function main(): Promise<number> {
  const options = loadFaultOptions();
  const chosen = options.FAULTS.length ? FAULTS.filter((f) => options.FAULTS.includes(f.name)) : FAULTS;
  if (chosen.length === 0) {
    console.error(
      `no fault named ${options.FAULTS.join(', ')}; known: ${FAULTS.map((f) => f.name).join(', ')}`,
    );
    return 2;
  }
  const redis = await startPrivateRedis();
  const databases = new FaultDatabases(options.DATABASE_URL);
  const rows: FaultRow[] = [];
  const started = Date.now();
  try {
    for (const [i, fault] of chosen.entries()) {
      const t0 = Date.now();
      const row = await runFault(fault, {
        redis,
        databases,
        databaseLabel: String(i),
        verbose: options.FAULTS_VERBOSE,
      });
      rows.push(row);
      console.error(
        `[faults] ${rowPassed(row) ? 'pass' : 'FAIL'} ${fault.name} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      );
    }
  } finally {
    await databases.dropAll();
    await redis.stop();
  }
  console.log(formatFaultTable(rows));
  console.log(
    `\n${rows.filter(rowPassed).length}/${rows.length} faults recovered cleanly in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return rows.every(rowPassed) ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
