import { checkIdFor } from '@wcs/monitor-scheduler';
import { ledgerOf, query } from './fault-checks';
import type { FaultContext, FaultScenario, ScenarioResult } from './fault-scenario';
import { waitFor } from './wait-for';

const TERMINAL_STATES = new Set(['completed', 'failed']);

async function checksOf(ctx: FaultContext): Promise<number> {
  const rows = await query<{ n: string }>(
    ctx.stack.databaseUrl,
    'SELECT count(*)::text AS n FROM monitor_checks WHERE monitor_id = $1 AND hash IS NOT NULL',
    [ctx.monitor.monitorId],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Wait for the baseline, so the fault hits a scheduled check (not the creation's baseline job). */
async function afterBaseline(ctx: FaultContext): Promise<void> {
  await waitFor('baseline check', async () => ((await checksOf(ctx)) >= 1 ? true : undefined), 30_000, 100);
}

/**
 * kill -9 the monitor-scheduler while a check's fetch is held by the site, start it again: the
 * check job is re-run (same job id → same check id), recorded and billed once.
 */
async function monitorCheckKill(ctx: FaultContext): Promise<ScenarioResult> {
  const { stack } = ctx;
  await afterBaseline(ctx);
  stack.site.delayMs = 1_500;
  const since = Date.now();
  await stack.site.when((r) => r.path === '/monitor' && r.at >= since, 30_000, 'a scheduled check');
  const queue = stack.producer.queue('monitor-check');
  const active = await waitFor(
    'active check job',
    async () => {
      const jobs = await queue.getActive();
      return jobs.length > 0 ? jobs.map((j) => String(j.id)) : undefined;
    },
    5_000,
    20,
  );
  const faultAt = Date.now();
  const scheduler = stack.service('monitor-scheduler');
  await scheduler.kill();
  await scheduler.start();
  const notes: string[] = [];
  let recoverMs: number | null = null;
  try {
    await waitFor(
      'killed check job terminal',
      async () => {
        const states = await Promise.all(active.map((id) => queue.getJobState(id)));
        return states.every((s) => TERMINAL_STATES.has(s)) ? true : undefined;
      },
      30_000,
      100,
    );
    recoverMs = Date.now() - faultAt;
  } catch (err) {
    notes.push(String(err instanceof Error ? err.message : err));
  }
  stack.site.delayMs = 0;
  const checkIds = active.map(checkIdFor);
  const recorded = await query<{ id: string }>(
    stack.databaseUrl,
    'SELECT id::text AS id FROM monitor_checks WHERE id = ANY($1::uuid[])',
    [checkIds],
  );
  const charges = (await ledgerOf(stack.databaseUrl, ctx.monitor.account.accountId)).filter(
    (l) => l.reason === 'monitor_check' && l.reference !== null && checkIds.includes(l.reference),
  );
  if (recorded.length < active.length)
    notes.push(`${active.length - recorded.length} killed check(s) not recorded`);
  return {
    terminal: recoverMs !== null,
    lost: active.length - recorded.length,
    runTwice: Math.max(0, charges.length - recorded.length),
    recoverMs,
    expected: [],
    notes,
  };
}

/**
 * A change's webhook POST reaches the receiver, which holds it unanswered; the dispatcher is then
 * killed and started again. Documented semantics: one signed POST, never retried — so at most one
 * POST per change, and the attempt is recorded (its outcome unknown) rather than sent again.
 */
async function webhookKill(ctx: FaultContext): Promise<ScenarioResult> {
  const { stack } = ctx;
  const { monitorId } = ctx.monitor;
  await afterBaseline(ctx);
  stack.receiver.holdNext = true;
  stack.site.monitorVersion++;
  await stack.receiver.when((w) => w.monitorId === monitorId, 30_000);
  const faultAt = Date.now();
  const dispatcher = stack.service('webhook-dispatcher');
  await dispatcher.kill();
  await dispatcher.start();
  const change = await waitFor(
    'change row',
    async () =>
      (
        await query<{ id: string }>(
          stack.databaseUrl,
          'SELECT id::text AS id FROM monitor_changes WHERE monitor_id = $1 ORDER BY detected_at LIMIT 1',
          [monitorId],
        )
      )[0]?.id,
    10_000,
  );
  const queue = stack.producer.queue('webhook');
  const notes: string[] = [];
  let recoverMs: number | null = null;
  try {
    await waitFor(
      'webhook job terminal and attempt recorded',
      async () => {
        const state = await queue.getJobState(`change-${change}`);
        const rows = await query(stack.databaseUrl, 'SELECT 1 FROM webhook_deliveries WHERE change_id = $1', [
          change,
        ]);
        return TERMINAL_STATES.has(state) && rows.length > 0 ? true : undefined;
      },
      30_000,
      100,
    );
    recoverMs = Date.now() - faultAt;
  } catch (err) {
    notes.push(String(err instanceof Error ? err.message : err));
  }
  const delivery = await query<{ status_code: number | null; error: string | null }>(
    stack.databaseUrl,
    'SELECT status_code, error FROM webhook_deliveries WHERE change_id = $1',
    [change],
  );
  const posts = stack.receiver.received.filter((w) => w.monitorId === monitorId).length;
  if (posts > 1) notes.push(`receiver got ${posts} POSTs for one change`);
  if (delivery[0])
    notes.push(`recorded: status ${delivery[0].status_code ?? '-'}, ${delivery[0].error ?? 'ok'}`);
  return {
    terminal: recoverMs !== null,
    lost: delivery.length === 0 ? 1 : 0,
    runTwice: Math.max(0, posts - 1),
    recoverMs,
    expected: [],
    notes,
  };
}

export const monitorFaults: FaultScenario[] = [
  {
    name: 'SIGKILL monitor-scheduler mid-check',
    what:
      'kill -9 the monitor-scheduler while the site holds a scheduled check (1.5 s), start it again: ' +
      'the check job is re-run under the same id, recorded and billed once; the schedule survives',
    run: monitorCheckKill,
  },
  {
    name: 'SIGKILL webhook-dispatcher mid-delivery',
    what:
      'kill -9 the webhook-dispatcher while the receiver holds its POST unanswered, start it again: ' +
      'at most one POST per change (never retried), and the attempt is recorded',
    run: webhookKill,
  },
];
