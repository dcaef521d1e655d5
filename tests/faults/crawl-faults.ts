import { treeSize } from '@wcs/testing';
import { ledgerOf, query } from './fault-checks';
import {
  extraFetches,
  type FaultContext,
  type FaultScenario,
  keysOf,
  type ScenarioResult,
} from './fault-scenario';
import { waitFor } from './wait-for';

const TREE = treeSize(3, 3); // 40 pages under /tree
const CREDITS = 200;

function treeKeys(): string[] {
  const keys = ['/tree'];
  const walk = (prefix: string, depth: number) => {
    if (depth === 3) return;
    for (let i = 1; i <= 3; i++) {
      keys.push(`${prefix}/${i}`);
      walk(`${prefix}/${i}`, depth + 1);
    }
  };
  walk('/tree', 0);
  return keys;
}

/**
 * A 40-page crawl (tree of 3 × 3 levels, 200 ms a page); the fault comes once the site has seen
 * 8 tree pages. The crawl must end `done`, all 40 pages done, each fetched once (or twice if it was
 * in flight during the fault) and billed once (one `crawl` ledger row per page).
 */
async function crawlUnderFault(ctx: FaultContext, inject: () => Promise<void>): Promise<ScenarioResult> {
  const { stack } = ctx;
  const account = await stack.account(CREDITS);
  stack.site.delayMs = 200;
  const start = await stack.api('POST', '/v1/crawl', account, {
    url: `${stack.site.url}/tree`,
    maxDepth: 3,
    includePaths: ['^/tree'],
  });
  if (start.status !== 202) throw new Error(`crawl start: ${start.status} ${JSON.stringify(start.body)}`);
  const crawlId = String(start.body.id);
  await stack.site.when(
    (_r, all) => all.filter((x) => x.path.startsWith('/tree')).length >= 8,
    30_000,
    'crawl: 8 tree requests',
  );
  // Rows running just before and just after the fault: the work it interrupted.
  const running = () =>
    query<{ url: string }>(
      stack.databaseUrl,
      "SELECT url FROM crawl_pages WHERE crawl_id = $1 AND status = 'running'",
      [crawlId],
    );
  const before = await running();
  const faultAt = Date.now();
  await inject();
  const injectedAt = Date.now();
  const inFlight = stack.site.inFlightDuring(faultAt, injectedAt);
  const after = await running().catch(() => []);
  for (const k of keysOf([...before, ...after].map((r) => r.url))) inFlight.add(k);
  const notes: string[] = [];
  let terminal = true;
  let recoverMs: number | null = null;
  let status: Record<string, unknown> = {};
  try {
    status = await waitFor(
      'crawl terminal',
      async () => {
        const s = await stack.api('GET', `/v1/crawl/${crawlId}?limit=1`, account);
        return s.body.status === 'done' || s.body.status === 'failed' ? s.body : undefined;
      },
      90_000,
      100,
    );
    recoverMs = Date.now() - faultAt;
    if (status.status !== 'done') notes.push(`crawl ended ${String(status.status)}: ${String(status.error)}`);
  } catch (err) {
    terminal = false;
    notes.push(String(err instanceof Error ? err.message : err));
  }
  const pages = await query<{ status: string; n: string }>(
    stack.databaseUrl,
    'SELECT status, count(*)::text AS n FROM crawl_pages WHERE crawl_id = $1 GROUP BY status',
    [crawlId],
  );
  const count = (s: string) => Number(pages.find((p) => p.status === s)?.n ?? 0);
  const done = count('done');
  if (count('queued') + count('running') > 0) terminal = false;
  if (count('failed') > 0) notes.push(`${count('failed')} page(s) failed`);
  const over = extraFetches(stack.site.requests, treeKeys(), inFlight);
  const charges = (await ledgerOf(stack.databaseUrl, account.accountId)).filter((l) => l.reason === 'crawl');
  const refs = new Set(charges.map((c) => c.reference));
  if (charges.length !== done) notes.push(`${charges.length} crawl charges for ${done} done pages`);
  notes.push(...over.slice(0, 3));
  return {
    terminal,
    lost: TREE - done,
    runTwice: over.length + (charges.length - refs.size),
    recoverMs,
    expected: [{ account, balance: CREDITS - done }],
    notes,
  };
}

export const crawlFaults: FaultScenario[] = [
  {
    name: 'SIGKILL crawl-worker mid-crawl',
    what:
      'kill -9 the crawl-worker after 8 of 40 pages were requested, start it again: stalled page ' +
      'jobs come back, the frontier in PostgreSQL keeps every page once',
    run: (ctx) =>
      crawlUnderFault(ctx, async () => {
        const worker = ctx.stack.service('crawl-worker');
        await worker.kill();
        await worker.start();
      }),
  },
  {
    name: 'FLUSH queue keys mid-crawl',
    what:
      "delete every Redis key of the stack's queue prefix after 8 of 40 pages were requested: the " +
      "crawl reconciler re-enqueues the frontier's unfinished rows (and the politeness slots are gone too)",
    run: (ctx) =>
      crawlUnderFault(ctx, async () => {
        await ctx.redis.flushPrefix(ctx.stack.prefix);
      }),
  },
];
