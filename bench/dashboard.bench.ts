/**
 * Dashboard benchmark, against the real PostgreSQL and Redis (scripts/with-stores.ts):
 *  1. an account with 100,000 ledger rows over the last 90 days across every reason, written by
 *     one INSERT … SELECT … FROM generate_series (balance_after by a window function, the
 *     account's balance set to the last one in the same statement);
 *  2. latency of GET /v1/account, GET /v1/usage?days=30 and GET /v1/ledger?limit=50 with the
 *     Bearer key (p50/p95 over --calls calls each, after a warm-up), gateway in its own process
 *     as `pnpm start` runs it, over loopback with keep-alive;
 *  3. the overview's load time in Chromium, already signed in: from navigating to /dashboard
 *     until the balance and the usage chart's canvas are visible (first load, then the median of
 *     --loads loads);
 *  4. the size of packages/dashboard/dist's JavaScript and CSS, gzip and brotli.
 *
 *   pnpm bench:dashboard [--rows 100000] [--calls 20] [--loads 5]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { AccountsRepository, ApiKeysRepository, createDb } from '@wcs/db';
import { Agent, request } from 'undici';
import { launchChromium } from '../tests/src/dashboard/browser';
import {
  benchEnv,
  freePort,
  median,
  percentile,
  ROOT,
  startService,
  stopProcess,
  waitHealthy,
} from './bench-utils';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    calls: { type: 'string', default: '20' },
    loads: { type: 'string', default: '5' },
  },
});
const ROWS = Number(values.rows);
const CALLS = Number(values.calls);
const LOADS = Number(values.loads);
const TARGET_MS = 1_000;

/**
 * One statement: row 1 is a large grant (the balance never goes negative), then charges, refunds,
 * top-ups, monthly grants and adjustments in a fixed rotation, evenly spaced over 90 days up to a
 * minute ago; balance_after is the running sum in time order; the account's balance becomes the
 * last balance_after.
 */
const SEED_SQL = `
WITH rows AS (
  SELECT i,
         CASE WHEN i = 1 THEN 'grant' ELSE (ARRAY[
           'scrape','scrape','scrape','scrape_refund','batch','batch_refund','crawl','crawl','crawl_refund',
           'map','map_refund','search','search_refund','extract','extract_refund','monitor_check','monitor_check',
           'topup','monthly','adjustment','grant'
         ])[1 + (i % 21)] END AS reason,
         now() - interval '1 minute' - (($2::int - i) * (interval '90 days' / $2::int)) AS created_at
  FROM generate_series(1, $2::int) AS i
), amounts AS (
  SELECT i, reason, created_at,
         CASE
           WHEN i = 1 THEN 10000000
           WHEN reason IN ('grant', 'monthly') THEN 1000
           WHEN reason = 'topup' THEN 500
           WHEN reason = 'adjustment' THEN -2
           WHEN reason LIKE '%\\_refund' THEN 1
           WHEN reason = 'monitor_check' THEN -1
           ELSE -(1 + i % 5)
         END AS amount
  FROM rows
), inserted AS (
  INSERT INTO credit_ledger (account_id, amount, balance_after, reason, reference, created_at)
  SELECT $1::uuid, amount, SUM(amount) OVER (ORDER BY created_at, i), reason, 'bench-' || i, created_at
  FROM amounts
  ORDER BY created_at, i
  RETURNING id, balance_after, created_at
)
UPDATE accounts
SET balance = (SELECT balance_after FROM inserted ORDER BY created_at DESC, id DESC LIMIT 1)
WHERE id = $1::uuid
`;

interface Timing {
  name: string;
  p50: number;
  p95: number;
  max: number;
}

async function endpointTimings(base: string, apiKey: string, dispatcher: Agent): Promise<Timing[]> {
  const out: Timing[] = [];
  for (const p of ['/v1/account', '/v1/usage?days=30', '/v1/ledger?limit=50']) {
    const once = async (): Promise<number> => {
      const t0 = performance.now();
      const res = await request(`${base}${p}`, {
        headers: { authorization: `Bearer ${apiKey}` },
        dispatcher,
      });
      const body = await res.body.text();
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`GET ${p}: ${res.statusCode} ${body.slice(0, 200)}`);
      return ms;
    };
    for (let i = 0; i < 3; i++) await once(); // warm-up: JIT, pool connections, plan cache
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) times.push(await once());
    times.sort((a, b) => a - b);
    out.push({
      name: `GET ${p}`,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      max: times.at(-1) ?? 0,
    });
  }
  return out;
}

async function pageLoads(base: string, apiKey: string): Promise<{ first: number; times: number[] }> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Signed in once (the session cookie lands in the context), as a returning user is.
    const session = await context.request.post(`${base}/dashboard/api/session`, { data: { apiKey } });
    if (session.status() !== 200) throw new Error(`sign-in: ${session.status()} ${await session.text()}`);
    const load = async (): Promise<number> => {
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`${base}/dashboard`);
      await page.locator('[data-testid="balance"][data-value]').waitFor({ state: 'visible' });
      await page.locator('[data-testid="usage-chart"] canvas').first().waitFor({ state: 'visible' });
      const ms = performance.now() - t0;
      await page.close();
      return ms;
    };
    const first = await load();
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) times.push(await load());
    return { first, times };
  } finally {
    await browser.close();
  }
}

function distSizes(): Array<{ kind: string; files: number; raw: number; gzip: number; brotli: number }> {
  const dir = path.join(ROOT, 'packages/dashboard/dist/assets');
  const files = readdirSync(dir);
  return ['.js', '.css'].map((ext) => {
    const chosen = files.filter((f) => f.endsWith(ext));
    let raw = 0;
    let gzip = 0;
    let brotli = 0;
    for (const f of chosen) {
      const buf = readFileSync(path.join(dir, f));
      raw += buf.length;
      gzip += gzipSync(buf, { level: 9 }).length;
      brotli += brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    }
    return { kind: ext.slice(1).toUpperCase(), files: chosen.length, raw, gzip, brotli };
  });
}

const ms = (n: number): string => `${n.toFixed(1)} ms`.padStart(10);
const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`.padStart(11);

async function main(): Promise<void> {
  const db = createDb(benchEnv.DATABASE_URL);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const gateway = startService('gateway', {
    DATABASE_URL: benchEnv.DATABASE_URL,
    REDIS_URL: benchEnv.REDIS_URL,
    QUEUE_PREFIX: `bench-dash-${Date.now()}`,
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMIT_SCALE: '1000000',
  });
  const dispatcher = new Agent({ connections: 1 });
  let accountId = '';
  try {
    const account = await new AccountsRepository(db).create({ plan: 'scale', credits: 0 });
    accountId = account.accountId;
    const { apiKey } = await new ApiKeysRepository(db).create(accountId);
    const t0 = performance.now();
    await db.prisma.$executeRawUnsafe(SEED_SQL, accountId, ROWS);
    const seedMs = performance.now() - t0;
    // Planner statistics and the visibility map, as autovacuum keeps them on a table that grew to
    // this size (index-only scans of the usage query need the latter).
    await db.prisma.$executeRawUnsafe('VACUUM ANALYZE credit_ledger');
    const check = await db.prisma.$queryRawUnsafe<Array<{ n: bigint; sum: bigint; balance: number }>>(
      'SELECT count(*) AS n, sum(l.amount) AS sum, a.balance FROM credit_ledger l JOIN accounts a ON a.id = l.account_id WHERE l.account_id = $1::uuid GROUP BY a.balance',
      accountId,
    );
    const c = check[0];
    if (!c || Number(c.n) !== ROWS || Number(c.sum) !== c.balance) {
      throw new Error(
        `seed inconsistent: ${JSON.stringify(c, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))}`,
      );
    }
    console.log(
      `seed: ${ROWS.toLocaleString('en-US')} ledger rows over 90 days in one statement: ${(seedMs / 1000).toFixed(2)} s; balance ${c.balance.toLocaleString('en-US')} = sum of amounts`,
    );

    await waitHealthy(base);
    const timings = await endpointTimings(base, apiKey, dispatcher);
    const loads = await pageLoads(base, apiKey);
    const sizes = distSizes();

    console.log(`\nendpoints (Bearer, loopback, keep-alive; ${CALLS} calls each after 3 warm-up calls)`);
    console.log(`  ${'request'.padEnd(26)}${'p50'.padStart(10)}${'p95'.padStart(10)}${'max'.padStart(10)}`);
    for (const t of timings) console.log(`  ${t.name.padEnd(26)}${ms(t.p50)}${ms(t.p95)}${ms(t.max)}`);
    const med = median(loads.times);
    console.log('\noverview in Chromium (signed in; navigation → balance + chart canvas visible)');
    console.log(`  first load (empty cache)  ${ms(loads.first)}`);
    console.log(
      `  median of ${LOADS}              ${ms(med)}   (${loads.times.map((t) => t.toFixed(0)).join(', ')} ms)`,
    );
    console.log(
      `  target: overview renders < ${TARGET_MS} ms → ${med < TARGET_MS && loads.first < TARGET_MS ? 'met' : 'NOT met'}`,
    );
    console.log('\npackages/dashboard/dist/assets');
    console.log(
      `  ${'kind'.padEnd(6)}${'files'.padStart(6)}${'raw'.padStart(11)}${'gzip -9'.padStart(11)}${'brotli 11'.padStart(11)}`,
    );
    for (const s of sizes)
      console.log(
        `  ${s.kind.padEnd(6)}${String(s.files).padStart(6)}${kb(s.raw)}${kb(s.gzip)}${kb(s.brotli)}`,
      );
  } finally {
    await dispatcher.close();
    await stopProcess(gateway);
    // The bench's 100,000 rows go with the account (ON DELETE CASCADE): the bench database stays small.
    if (accountId) await db.prisma.account.delete({ where: { id: accountId } }).catch(() => undefined);
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
