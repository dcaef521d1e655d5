import { balanceOf, billedChecks, ledgerMismatches, monitorStillScheduled } from './fault-checks';
import { type FaultDatabases, type OwnedPostgres, startOwnedPostgres } from './fault-databases';
import type { FaultScenario, ScenarioResult } from './fault-scenario';
import { FaultStack, type FaultStackOptions } from './fault-stack';
import type { FaultRow } from './fault-table';
import type { PrivateRedis } from './private-redis';
import type { ServiceName } from './service-process';

const MONITOR_CREDITS = 100;

/**
 * One row of the table: a fresh database and stack, a standing monitor, the fault, then the
 * checks every fault shares — every account's ledger sums to its balance, the balances the
 * outcome implies, and the monitor still scheduled (scheduler in Redis, next check recorded).
 */
export async function runFault(
  scenario: FaultScenario,
  deps: {
    redis: PrivateRedis;
    databases: FaultDatabases;
    databaseLabel: string;
    verbose?: boolean;
    services?: ServiceName[];
    /** Where the services run (hosts in network namespaces) and what the site serves. */
    stackOptions?: FaultStackOptions;
    /** The Redis URL the stack uses, when not `redis.url` (e.g. the master behind Sentinel). */
    redisUrl?: string;
  },
): Promise<FaultRow> {
  let postgres: OwnedPostgres | null = null;
  let stack: FaultStack | null = null;
  const row: FaultRow = {
    fault: scenario.name,
    terminal: false,
    lost: 0,
    runTwice: 0,
    creditsOk: false,
    monitorsScheduled: null,
    recoverMs: null,
    notes: [],
  };
  try {
    postgres = scenario.ownPostgres ? await startOwnedPostgres() : null;
    const databaseUrl = postgres?.databaseUrl ?? (await deps.databases.fresh(deps.databaseLabel));
    stack = new FaultStack(databaseUrl, deps.redisUrl ?? deps.redis.url, deps.stackOptions);
    await stack.start(scenario.llmDelayMs ?? 0, deps.services);
    const monitorAccount = await stack.account(MONITOR_CREDITS);
    const created = await stack.api('POST', '/v1/monitor', monitorAccount, {
      url: `${stack.site.url}/monitor`,
      interval: 'hourly',
      webhookUrl: `${stack.receiver.url}/hook`,
    });
    if (created.status !== 201) throw new Error(`monitor create: ${created.status}`);
    const monitorId = String((created.body.data as { id: string }).id);

    const result: ScenarioResult = await scenario.run({
      stack,
      redis: deps.redis,
      postgres,
      monitor: { account: monitorAccount, monitorId },
    });
    Object.assign(row, {
      terminal: result.terminal,
      lost: result.lost,
      runTwice: result.runTwice,
      billedTwice: result.billedTwice,
      recoverMs: result.recoverMs,
    });
    row.notes.push(...result.notes);

    stack.site.delayMs = 0;
    const scheduled = await monitorStillScheduled(stack, monitorId);
    row.monitorsScheduled = scheduled.ok;
    if (scheduled.note) row.notes.push(scheduled.note);

    const mismatches = await ledgerMismatches(databaseUrl);
    const expected = [
      ...result.expected,
      // Checks are billed as they run: what the monitor account paid is its successful checks.
      {
        account: monitorAccount,
        balance: MONITOR_CREDITS - (await billedChecks(databaseUrl, monitorAccount.accountId)),
      },
    ];
    for (const e of expected) {
      const actual = await balanceOf(databaseUrl, e.account.accountId);
      if (actual !== e.balance)
        mismatches.push(
          `account ${e.account.accountId.slice(0, 8)}: balance ${actual}, outcome implies ${e.balance}`,
        );
    }
    row.creditsOk = mismatches.length === 0;
    row.notes.push(...mismatches);
  } catch (err) {
    row.notes.push(`harness: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    if (stack && deps.verbose && row.notes.length > 0) console.error(stack.logs().slice(-80).join('\n'));
    await stack?.close().catch(() => undefined);
    await postgres?.destroy().catch(() => undefined);
  }
  return row;
}
