import { treeSize } from '@wcs/testing';
import { ledgerOf, query } from '../faults/fault-checks';
import { extraFetches, type FaultContext, keysOf, type ScenarioResult } from '../faults/fault-scenario';
import type { Account, FaultStack } from '../faults/fault-stack';
import { waitFor } from '../faults/wait-for';

export const BATCH_ITEMS = 500;
/** 1 + 17 + 289 = 307 pages under /tree; the crawl stops at 300 of them. */
export const TREE = { branching: 17, depth: 2 };
export const CRAWL_PAGES = 300;
const CREDITS = 1_000;
/** Every page answers this late: keeps work in flight on both worker hosts when the fault comes. */
const PAGE_DELAY_MS = 100;
const TERMINAL_WITHIN_MS = 240_000;

/** What a fault did, as far as the workload needs to know. */
export interface Injected {
  /** Requests in flight at any point from the injection to this moment may be fetched again (default: when inject returned). */
  inFlightUntil?: number;
  /** Run once the work is terminal (e.g. the killed host starting again); what it says goes to the notes. */
  afterTerminal?: () => Promise<string[]>;
  notes?: string[];
}

function treeKeys(): string[] {
  const keys = ['/tree'];
  const walk = (prefix: string, depth: number) => {
    if (depth === TREE.depth) return;
    for (let i = 1; i <= TREE.branching; i++) {
      keys.push(`${prefix}/${i}`);
      walk(`${prefix}/${i}`, depth + 1);
    }
  };
  walk('/tree', 0);
  if (keys.length !== treeSize(TREE.branching, TREE.depth)) throw new Error('tree keys miscounted');
  return keys;
}

async function running(stack: FaultStack, batchId: string, crawlId: string): Promise<string[]> {
  const rows = await query<{ url: string }>(
    stack.databaseUrl,
    `SELECT url FROM batch_items WHERE batch_id = $1 AND status = 'running'
     UNION ALL SELECT url FROM crawl_pages WHERE crawl_id = $2 AND status = 'running'`,
    [batchId, crawlId],
  );
  return rows.map((r) => r.url);
}

/** Rows of `table` whose `column` is `id`, by status. */
function statusRows(stack: FaultStack, table: string, column: string, id: string) {
  return query<{ status: string; n: string }>(
    stack.databaseUrl,
    `SELECT status, count(*)::text AS n FROM ${table} WHERE ${column} = $1 GROUP BY status ORDER BY status`,
    [id],
  );
}

async function countBy(stack: FaultStack, table: string, column: string, id: string) {
  const rows = await statusRows(stack, table, column, id);
  return (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
}

/**
 * The BullMQ states of a crawl's unfinished pages that have a job (claimed, or running), with the
 * worker that took each running one: a page whose job is `active` on a dead worker, or missing,
 * says which recovery did not come.
 */
async function pageJobStates(stack: FaultStack, crawlId: string): Promise<string> {
  const rows = await query<{ id: string; status: string }>(
    stack.databaseUrl,
    `SELECT id, status FROM crawl_pages WHERE crawl_id = $1
       AND (status = 'running' OR (status = 'queued' AND enqueued)) ORDER BY status DESC LIMIT 50`,
    [crawlId],
  );
  const queue = stack.producer.queue('crawl-page');
  const seen = new Map<string, number>();
  for (const r of rows) {
    const job = await queue.getJob(r.id);
    const state = job ? await job.getState() : 'missing';
    const by = job?.processedBy ? ` by ${job.processedBy}` : '';
    const key = `${r.status}/${state}${by} (stalled ${job?.stalledCounter ?? 0})`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].map(([k, n]) => `${n}× ${k}`).join(', ') || 'none';
}

/**
 * Which service processes are up, and the last lines of each crawl worker (a worker that died or
 * stopped taking pages says so there).
 */
function serviceStates(stack: FaultStack): string {
  return [...stack.services.entries()]
    .map(([key, svc]) => {
      const state = `${key} ${svc.pid ? 'up' : 'down'} (started ${svc.starts}×)`;
      if (svc.name !== 'crawl-worker') return state;
      const last = svc.log.slice(-3).map((l) => l.slice(0, 300));
      return `${state}: ${last.join(' / ')}`;
    })
    .join('; ');
}

/**
 * Who holds the site's crawl politeness slots in Redis, for how much longer, and how long each
 * holder still counts as alive (host-slots.ts, host-slot-liveness.ts).
 */
async function hostSlotHolders(stack: FaultStack): Promise<string> {
  const redis = stack.producer.connection;
  const host = new URL(stack.site.url).host;
  const politeness = `${stack.producer.prefix}:crawl-politeness`;
  const [[sec, usec], members] = await Promise.all([
    redis.time(),
    redis.zrange(`${politeness}:host:${host}`, 0, -1, 'WITHSCORES'),
  ]);
  const now = Number(sec) * 1000 + Math.floor(Number(usec) / 1000);
  const held: string[] = [];
  for (let i = 0; i < members.length; i += 2) {
    const member = members[i] ?? '';
    const aliveUntil = await redis.zscore(`${politeness}:alive`, member.split(':')[0] ?? '');
    const alive = aliveUntil === null ? 'no liveness' : `alive ${Number(aliveUntil) - now} ms more`;
    held.push(`${member} ${Number(members[i + 1]) - now} ms left, ${alive}`);
  }
  return held.join(', ') || 'none';
}

/**
 * What a workload that did not end was doing: its items and pages by status, the database's
 * sessions by state (a lock held by a dead session shows as `idle in transaction`), the site's
 * requests of the last minute — so a failure of this row can be read from CI's output.
 */
async function stuckState(stack: FaultStack, batchId: string, crawlId: string): Promise<string> {
  const byStatus = async (table: string, column: string, id: string) =>
    (await statusRows(stack, table, column, id)).map((r) => `${r.status} ${r.n}`).join(', ');
  const sessions = await query<{ state: string | null; n: string; oldest: string | null }>(
    stack.databaseUrl,
    `SELECT state, count(*)::text AS n, max(now() - state_change)::text AS oldest
       FROM pg_stat_activity WHERE backend_type = 'client backend' GROUP BY state ORDER BY state`,
  );
  const since = Date.now() - 60_000;
  const recent = stack.site.requests.filter((r) => r.at >= since).length;
  return [
    `batch items: ${await byStatus('batch_items', 'batch_id', batchId)}`,
    `crawl pages: ${await byStatus('crawl_pages', 'crawl_id', crawlId)}`,
    `crawl page jobs: ${await pageJobStates(stack, crawlId)}`,
    `site's host slots: ${await hostSlotHolders(stack)}`,
    `services: ${serviceStates(stack)}`,
    `database sessions: ${sessions.map((x) => `${x.state ?? 'none'} ${x.n} (oldest ${x.oldest})`).join(', ')}`,
    `site requests in the last minute: ${recent}`,
  ].join('; ');
}

async function start(stack: FaultStack, batchAccount: Account, crawlAccount: Account) {
  const keys = Array.from({ length: BATCH_ITEMS }, (_, i) => `/page/${i}?run=hosts`);
  const batch = await stack.api('POST', '/v1/batch/scrape', batchAccount, {
    urls: keys.map((k) => `${stack.site.url}${k}`),
  });
  if (batch.status !== 202) throw new Error(`batch start: ${batch.status} ${JSON.stringify(batch.body)}`);
  const crawl = await stack.api('POST', '/v1/crawl', crawlAccount, {
    url: `${stack.site.url}/tree`,
    maxDepth: TREE.depth,
    maxPages: CRAWL_PAGES,
    includePaths: ['^/tree'],
  });
  if (crawl.status !== 202) throw new Error(`crawl start: ${crawl.status} ${JSON.stringify(crawl.body)}`);
  return { keys, batchId: String(batch.body.id), crawlId: String(crawl.body.id) };
}

/**
 * A 500-URL batch and a 300-page crawl at once, spread over both worker hosts; the fault comes once
 * the site has seen 100 batch pages and 30 crawl pages. Then both must end `done`: every item and
 * page done (a failed page counts as lost although a spare link fills its room), each fetched once (twice only if it was in flight during the fault), the batch
 * charged once (500) and each crawl page once, balances what the outcome implies.
 */
export async function workloadUnderFault(
  ctx: FaultContext,
  inject: () => Promise<Injected>,
): Promise<ScenarioResult> {
  const { stack } = ctx;
  const batchAccount = await stack.account(CREDITS);
  const crawlAccount = await stack.account(CREDITS);
  stack.site.delayMs = PAGE_DELAY_MS;
  const { keys, batchId, crawlId } = await start(stack, batchAccount, crawlAccount);
  await stack.site.when(
    (_r, all) =>
      all.filter((x) => x.path.startsWith('/page/')).length >= 100 &&
      all.filter((x) => x.path.startsWith('/tree')).length >= 30,
    120_000,
    'workload: 100 batch and 30 crawl page requests',
  );
  const before = await running(stack, batchId, crawlId);
  const faultAt = Date.now();
  const injected = await inject();
  const inFlight = stack.site.inFlightDuring(faultAt, injected.inFlightUntil ?? Date.now());
  const after = await running(stack, batchId, crawlId).catch(() => []);
  for (const k of keysOf([...before, ...after])) inFlight.add(k);
  const notes = [...(injected.notes ?? [])];
  let terminal = true;
  let recoverMs: number | null = null;
  try {
    await waitFor(
      'batch and crawl terminal',
      async () => {
        const b = await stack.api('GET', `/v1/batch/scrape/${batchId}`, batchAccount);
        const c = await stack.api('GET', `/v1/crawl/${crawlId}?limit=1`, crawlAccount);
        const crawlEnded = c.body.status === 'done' || c.body.status === 'failed';
        return b.body.status === 'done' && crawlEnded ? true : undefined;
      },
      TERMINAL_WITHIN_MS,
      200,
    );
    recoverMs = Date.now() - faultAt;
  } catch (err) {
    terminal = false;
    notes.push(String(err instanceof Error ? err.message : err));
    notes.push(
      await stuckState(stack, batchId, crawlId).catch((e: unknown) => `state unreadable: ${String(e)}`),
    );
  }
  notes.push(...((await injected.afterTerminal?.()) ?? []));

  const items = await countBy(stack, 'batch_items', 'batch_id', batchId);
  const pages = await countBy(stack, 'crawl_pages', 'crawl_id', crawlId);
  if (items('queued') + items('running') + pages('queued') + pages('running') > 0) terminal = false;
  const itemsDone = items('done');
  const pagesDone = pages('done');
  if (items('failed') > 0) notes.push(`${items('failed')} item(s) failed (refunded)`);
  if (pages('failed') > 0) {
    const why = await query<{ url: string; error: string | null }>(
      stack.databaseUrl,
      "SELECT url, error FROM crawl_pages WHERE crawl_id = $1 AND status = 'failed' LIMIT 2",
      [crawlId],
    );
    notes.push(
      `${pages('failed')} page(s) failed: ${why.map((w) => `${keysOf([w.url])[0]} ${w.error}`).join('; ')}`,
    );
  }

  const batchLedger = await ledgerOf(stack.databaseUrl, batchAccount.accountId);
  const charges = batchLedger.filter((l) => l.reason === 'batch');
  const refunds = batchLedger.filter((l) => l.reason === 'batch_refund');
  if (charges.length !== 1 || charges[0]?.amount !== -BATCH_ITEMS)
    notes.push(`batch charge rows: ${JSON.stringify(charges)}`);
  if (refunds.length !== items('failed'))
    notes.push(`${refunds.length} refund rows for ${items('failed')} failed items`);
  const crawlCharges = (await ledgerOf(stack.databaseUrl, crawlAccount.accountId)).filter(
    (l) => l.reason === 'crawl',
  );
  if (crawlCharges.length !== pagesDone)
    notes.push(`${crawlCharges.length} crawl charges for ${pagesDone} done pages`);
  const billedTwice =
    Math.max(0, charges.length - 1) +
    Math.max(0, refunds.length - items('failed')) +
    (crawlCharges.length - new Set(crawlCharges.map((c) => c.reference)).size);

  const over = extraFetches(stack.site.requests, [...keys, ...treeKeys()], inFlight, faultAt);
  notes.push(...over.slice(0, 3));
  // Before the fault no lock may be lost: one that was means a process stopped answering for longer
  // than the lock (its event loop held), and its jobs ran again elsewhere. Said so a failure can be read.
  const early = stack.lockLossesBefore(faultAt);
  if (early.length > 0) notes.push(`job locks lost before the fault: ${early.join(', ')}`);
  return {
    terminal,
    // A failed page is lost even when a spare link took its room (the crawl still reached 300).
    lost: BATCH_ITEMS - itemsDone + Math.max(pages('failed'), CRAWL_PAGES - pagesDone),
    runTwice: over.length + billedTwice,
    billedTwice,
    recoverMs,
    expected: [
      { account: batchAccount, balance: CREDITS - itemsDone },
      { account: crawlAccount, balance: CREDITS - pagesDone },
    ],
    notes,
  };
}
