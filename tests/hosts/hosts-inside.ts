/**
 * The part of `pnpm test:hosts` that runs inside the stores namespace (run-hosts.ts starts it
 * there): PostgreSQL, Redis, the site and the webhook receiver listen on the stores address, the
 * services run in the gateway's and the worker hosts' namespaces, one row per fault.
 */
import { FaultDatabases, startOwnedPostgres } from '../faults/fault-databases';
import { runFault } from '../faults/fault-runner';
import type { FaultScenario } from '../faults/fault-scenario';
import { startPrivateRedis } from '../faults/private-redis';
import { HOSTS_STACK, hostFaults } from './host-faults';
import { HOSTS_CIDR, NET_HOSTS, TMP_PREFIX } from './host-network';
import { loadHostsOptions } from './hosts-options';
import { formatHostTable, type HostRow, hostRowPassed } from './hosts-table';
import { type RedisHaFault, type RowRedis, redisHaFaults } from './redis-ha-faults';

/** The row of a fault whose stores could not be started: failed, with the harness's reason. */
function unstartedRow(name: string): HostRow {
  return {
    fault: name,
    terminal: false,
    lost: 0,
    runTwice: 0,
    creditsOk: false,
    monitorsScheduled: null,
    recoverMs: null,
    notes: [],
  };
}

/** A row on its own Redis (Sentinel, Cluster): started before, stopped after, failure to start is the row's. */
async function runWithOwnRedis(
  fault: RedisHaFault,
  host: string,
  run: (ha: RowRedis) => Promise<HostRow>,
): Promise<HostRow> {
  let ha: RowRedis | null = null;
  try {
    ha = await fault.start(host);
    return await run(ha);
  } catch (err) {
    const row = unstartedRow(fault.name);
    row.notes.push(`harness: ${err instanceof Error ? err.message : String(err)}`);
    return row;
  } finally {
    await ha?.stop().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const options = loadHostsOptions();
  const all: Array<FaultScenario | RedisHaFault> = [...hostFaults, ...redisHaFaults];
  const chosen = options.HOSTS_FAULTS.length ? all.filter((f) => options.HOSTS_FAULTS.includes(f.name)) : all;
  if (chosen.length === 0) {
    console.error(
      `no fault named ${options.HOSTS_FAULTS.join(', ')}; known: ${all.map((f) => f.name).join(', ')}`,
    );
    return 2;
  }
  const stores = NET_HOSTS.stores.address;
  const postgres = await startOwnedPostgres({
    host: stores,
    clients: HOSTS_CIDR,
    dirPrefix: `${TMP_PREFIX}pg-`,
  });
  const cleanups: Array<() => Promise<unknown>> = [() => postgres.destroy()];
  // Interrupted: stop the stores this process started (the services die with it, see
  // service-process.ts); run-hosts.ts then removes the namespaces.
  const interrupted = () => {
    Promise.allSettled(cleanups.map((c) => c())).finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const rows: HostRow[] = [];
  try {
    const redis = await startPrivateRedis(stores);
    cleanups.unshift(() => redis.stop());
    const databases = new FaultDatabases(postgres.databaseUrl);
    cleanups.unshift(() => databases.dropAll());
    const common = { redis, databases, verbose: options.HOSTS_VERBOSE };
    for (const [i, fault] of chosen.entries()) {
      const t0 = Date.now();
      let row: HostRow;
      if ('run' in fault) {
        row = await runFault(fault, { ...common, databaseLabel: String(i), stackOptions: HOSTS_STACK });
      } else {
        row = await runWithOwnRedis(fault, stores, (ha) =>
          runFault(
            { name: fault.name, what: fault.what, run: ha.run },
            {
              ...common,
              databaseLabel: String(i),
              redisUrl: ha.redisUrl,
              stackOptions: {
                ...HOSTS_STACK,
                env: { ...HOSTS_STACK.env, ...ha.env },
                producerRedis: ha.producerRedis,
              },
            },
          ),
        );
      }
      rows.push(row);
      console.error(
        `[hosts] ${hostRowPassed(row) ? 'pass' : 'FAIL'} ${fault.name} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      );
    }
  } finally {
    for (const c of cleanups.splice(0)) await c().catch(() => undefined);
  }
  console.log(formatHostTable(rows));
  console.log(`\n${rows.filter(hostRowPassed).length}/${rows.length} faults recovered cleanly`);
  return rows.every(hostRowPassed) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
