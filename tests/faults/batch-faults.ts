import { ledgerOf, query } from './fault-checks';
import {
  extraFetches,
  type FaultContext,
  type FaultScenario,
  keysOf,
  type ScenarioResult,
} from './fault-scenario';
import { waitFor } from './wait-for';

const ITEMS = 20;
const CREDITS = 100;

/**
 * A 20-item batch against a site that answers each page in 200 ms; the fault is injected once the
 * site has seen 5 page requests, then the batch must end `done` with every item done once and
 * billed once: one `batch` charge of 20, no refunds, balance = credits − 20.
 */
async function batchUnderFault(
  ctx: FaultContext,
  inject: () => Promise<void>,
  opts: { noteWindow?: boolean } = {},
): Promise<ScenarioResult> {
  const { stack } = ctx;
  const account = await stack.account(CREDITS);
  stack.site.delayMs = 200;
  const keys = Array.from({ length: ITEMS }, (_, i) => `/page/${i}?run=batch`);
  const start = await stack.api('POST', '/v1/batch/scrape', account, {
    urls: keys.map((k) => `${stack.site.url}${k}`),
  });
  if (start.status !== 202) throw new Error(`batch start: ${start.status} ${JSON.stringify(start.body)}`);
  const batchId = String(start.body.id);
  await stack.site.when(
    (_r, all) => all.filter((x) => x.path.startsWith('/page/')).length >= 5,
    30_000,
    'batch: 5 page requests',
  );
  // Rows running just before and just after the fault: the work it interrupted.
  const running = () =>
    query<{ url: string }>(
      stack.databaseUrl,
      "SELECT url FROM batch_items WHERE batch_id = $1 AND status = 'running'",
      [batchId],
    );
  const before = await running();
  const faultAt = Date.now();
  await inject();
  const injectedAt = Date.now();
  const inFlight = stack.site.inFlightDuring(faultAt, injectedAt);
  const after = await running().catch(() => []);
  for (const k of keysOf([...before, ...after].map((r) => r.url))) inFlight.add(k);
  const notes: string[] = [];
  // Evidence that the fault hit work in flight (e.g. how long PostgreSQL was away).
  if (opts.noteWindow)
    notes.push(`fault lasted ${injectedAt - faultAt} ms with ${before.length} item(s) running`);
  let terminal = true;
  let recoverMs: number | null = null;
  try {
    await waitFor(
      'batch done',
      async () => {
        const s = await stack.api('GET', `/v1/batch/scrape/${batchId}`, account);
        return s.body.status === 'done' ? s : undefined;
      },
      90_000,
      100,
    );
    recoverMs = Date.now() - faultAt;
  } catch (err) {
    terminal = false;
    notes.push(String(err instanceof Error ? err.message : err));
  }
  const items = await query<{ status: string; n: string }>(
    stack.databaseUrl,
    'SELECT status, count(*)::text AS n FROM batch_items WHERE batch_id = $1 GROUP BY status',
    [batchId],
  );
  const count = (s: string) => Number(items.find((i) => i.status === s)?.n ?? 0);
  const done = count('done');
  const failed = count('failed');
  if (count('queued') + count('running') > 0) terminal = false;
  if (failed > 0) notes.push(`${failed} item(s) failed (refunded)`);
  const over = extraFetches(stack.site.requests, keys, inFlight);
  const ledger = await ledgerOf(stack.databaseUrl, account.accountId);
  const charges = ledger.filter((l) => l.reason === 'batch');
  const refunds = ledger.filter((l) => l.reason === 'batch_refund');
  if (charges.length !== 1 || charges[0]?.amount !== -ITEMS)
    notes.push(`batch charge rows: ${JSON.stringify(charges)}`);
  if (refunds.length !== failed) notes.push(`${refunds.length} refund rows for ${failed} failed items`);
  const billedTwice = (charges.length > 1 ? 1 : 0) + Math.max(0, refunds.length - failed);
  notes.push(...over.slice(0, 3));
  return {
    terminal,
    lost: ITEMS - done,
    runTwice: over.length + billedTwice,
    recoverMs,
    expected: [{ account, balance: CREDITS - done }],
    notes,
  };
}

export const batchFaults: FaultScenario[] = [
  {
    name: 'SIGKILL scrape-worker mid-batch',
    what:
      'kill -9 the scrape-worker after 5 of 20 items were requested, start it again: the stalled ' +
      'jobs come back (BullMQ stalled check), the rest were waiting in Redis',
    run: (ctx) =>
      batchUnderFault(ctx, async () => {
        const worker = ctx.stack.service('scrape-worker');
        await worker.kill();
        await worker.start();
      }),
  },
  {
    name: 'FLUSH queue keys mid-batch',
    what:
      "delete every Redis key of the stack's queue prefix after 5 of 20 items were requested (a " +
      'Redis restart without persistence): the reconciler re-enqueues the unfinished items from PostgreSQL',
    run: (ctx) =>
      batchUnderFault(ctx, async () => {
        await ctx.redis.flushPrefix(ctx.stack.prefix);
      }),
  },
  {
    name: 'restart PostgreSQL mid-batch',
    what:
      'stop the embedded PostgreSQL the stack runs against after 5 of 20 items were requested and ' +
      'start it again: writes that failed meanwhile are retried, no item is lost or billed twice',
    ownPostgres: true,
    run: (ctx) =>
      batchUnderFault(
        ctx,
        async () => {
          if (!ctx.postgres) throw new Error('this fault needs its own PostgreSQL');
          await ctx.postgres.stop();
          await ctx.postgres.start();
        },
        { noteWindow: true },
      ),
  },
];
