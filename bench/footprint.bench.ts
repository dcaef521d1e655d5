/**
 * `pnpm bench:footprint`: the memory and start time of the stack as the run command starts it, in
 * both of its modes in the same run — the multi-process stack (scripts/dist/supervise.js
 * --with-stores: one supervisor, one `node dist/main.js` per service) and the one-process mode
 * (`--one-process`: one supervisor, one `node dist/main.js` of services/one-process).
 *
 * For each mode:
 * - time to healthy: from the spawn of the process that serves the API (its start time in /proc)
 *   to the first 200 of GET /healthz, the stores already up; the first start and `--restarts` more
 *   (the process killed, the supervisor starts it again);
 * - idle: every service up `--settle-ms`, then each process's median over 10 s of samples. RSS is
 *   what the targets are stated in; PSS splits the pages the processes share (the node binary);
 * - under load: `--batches` batches of `--pages` real article pages (bench/article-site.ts, every
 *   URL made unique per batch so no cache answers), the stack's peak RSS sampled every 200 ms during
 *   each, and whether the peaks after the first (warm-up) batch stay flat (FLAT_TOLERANCE); pages/s of
 *   each batch, and one-process / multi-process (target: within 15 %).
 *
 *   pnpm bench:footprint [--batches 10] [--pages 500] [--settle-ms 30000] [--restarts 2]
 *                        [--mode multi|one-process …] [--browser]
 *
 * `--browser` adds, per mode, one page that needs JavaScript (the browser it launches) and the idle
 * close (BROWSER_IDLE_CLOSE_MS) that takes it away again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrateDatabase } from '@wcs/db';
import { startFixtureSite } from '@wcs/testing';
import pg from 'pg';
import { request } from 'undici';
import { startArticleSite } from './article-site';
import { benchAccount, benchEnv, freePort, median, ROOT, waitHealthy } from './bench-utils';
import { alive, isNode, type Proc, printTable, snapshot, total, uptimeSecs } from './footprint-procs';
import { peakGrowth } from './peak-growth';
import { runBatch } from './scrape-compare';

const { values: args } = parseArgs({
  options: {
    batches: { type: 'string', default: '10' },
    pages: { type: 'string', default: '500' },
    'settle-ms': { type: 'string', default: '30000' },
    restarts: { type: 'string', default: '2' },
    mode: { type: 'string', multiple: true },
    browser: { type: 'boolean', default: false },
  },
});
const BATCHES = Number(args.batches);
const PAGES = Number(args.pages);
const SETTLE_MS = Number(args['settle-ms']);
const RESTARTS = Number(args.restarts);
const WINDOW_MS = 10_000;
const IDLE_CLOSE_MS = 5_000;
/**
 * Flat: over the batches after the first, the peak's growth (least-squares line, first to last
 * batch) stays within this share of the line's start. The first batch is the warm-up: the content
 * threads start, the database pool opens its connections, the JIT compiles the pipeline and the
 * bounded caches fill, all once; what grows batch after batch after it is what a leak looks like.
 * The first batch's peak is still printed beside the others.
 */
const FLAT_TOLERANCE = 0.1;
const WARM_UP_BATCHES = 1;

const MODES = ['multi', 'one-process'] as const;
type Mode = (typeof MODES)[number];
// In the order given (run it both ways round on a shared machine: load drifts over a run).
const modes: Mode[] = args.mode
  ? MODES.filter((m) => args.mode?.includes(m)).sort(
      (a, b) => (args.mode?.indexOf(a) ?? 0) - (args.mode?.indexOf(b) ?? 0),
    )
  : [...MODES];
/** The process that serves the API in each mode. */
const API_ROLE: Record<Mode, string> = { multi: 'gateway', 'one-process': 'one-process' };
const SERVICE_ROLES: Record<Mode, number> = { multi: 6, 'one-process': 1 };

interface Batch {
  peakNodeMb: number;
  peakTreeMb: number;
  pagesPerSec: number;
  completed: number;
  failed: number;
}

interface ModeResult {
  healthyMs: number[];
  idle: Proc[];
  batches: Batch[];
}

async function until<T>(
  what: string,
  ms: number,
  fn: () => T | undefined | Promise<T | undefined>,
  everyMs = 500,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const healthOk = (base: string) =>
  request(`${base}/healthz`).then(
    async (r) => {
      await r.body.dump();
      return r.statusCode === 200;
    },
    () => false,
  );

/**
 * Time from the spawn of the API's process (a new pid other than `previous`) to its first
 * /healthz 200: polled every 20 ms, both ends on the kernel's clock (10 ms ticks).
 */
async function timeToHealthy(
  stack: ChildProcess,
  mode: Mode,
  base: string,
  previous?: number,
): Promise<number> {
  const apiProc = await until(
    'the API process',
    90_000,
    () => snapshot(stack.pid as number).find((p) => p.role === API_ROLE[mode] && p.pid !== previous),
    10,
  );
  await until('/healthz', 60_000, async () => ((await healthOk(base)) ? true : undefined), 20);
  return Math.round((uptimeSecs() - apiProc.startSecs) * 1000);
}

/** Kill the API's process; the supervisor starts it again (after its 0.5 s backoff). */
async function restartApi(stack: ChildProcess, mode: Mode, base: string): Promise<number> {
  const before = snapshot(stack.pid as number).find((p) => p.role === API_ROLE[mode]);
  if (!before) throw new Error('no API process');
  process.kill(before.pid, 'SIGKILL');
  await until('the old process to go', 10_000, () => (alive(before.pid) ? undefined : true), 10);
  return timeToHealthy(stack, mode, base, before.pid);
}

/** Every service up SETTLE_MS, then the median of each process over WINDOW_MS. */
async function idleTable(stack: ChildProcess, mode: Mode): Promise<Proc[]> {
  const pid = stack.pid as number;
  await until('every service', 90_000, () =>
    snapshot(pid).filter((p) =>
      /^(gateway|one-process|.*-worker|monitor-scheduler|webhook-dispatcher)$/.test(p.role),
    ).length >= SERVICE_ROLES[mode]
      ? true
      : undefined,
  );
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const samples = new Map<number, Proc[]>();
  for (const end = Date.now() + WINDOW_MS; Date.now() < end; ) {
    for (const p of snapshot(pid)) samples.set(p.pid, [...(samples.get(p.pid) ?? []), p]);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  return [...samples.values()].map((ps) => ({
    ...(ps[0] as Proc),
    rssMb: median(ps.map((p) => p.rssMb)),
    pssMb: median(ps.map((p) => p.pssMb)),
  }));
}

/** One batch of PAGES article pages, the stack's RSS sampled every 200 ms while it runs. */
async function loadBatch(
  stack: ChildProcess,
  base: string,
  headers: Record<string, string>,
  urls: string[],
): Promise<Batch> {
  let peakNodeMb = 0;
  let peakTreeMb = 0;
  const sample = () => {
    const procs = snapshot(stack.pid as number);
    peakNodeMb = Math.max(peakNodeMb, total(procs.filter(isNode), 'rssMb'));
    peakTreeMb = Math.max(peakTreeMb, total(procs, 'rssMb'));
  };
  const timer = setInterval(sample, 200);
  try {
    const run = await runBatch(base, headers, urls, 200);
    sample();
    return {
      peakNodeMb,
      peakTreeMb,
      pagesPerSec: run.completed / run.secs,
      completed: run.completed,
      failed: run.failed,
    };
  } finally {
    clearInterval(timer);
  }
}

function startStack(mode: Mode, env: Record<string, string>): ChildProcess {
  const flags = mode === 'one-process' ? ['--one-process'] : [];
  return spawn(process.execPath, [path.join(ROOT, 'scripts/dist/supervise.js'), '--with-stores', ...flags], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** SIGTERM the supervisor (it stops its children), then wait for the whole tree. */
async function stopTree(root: ChildProcess): Promise<void> {
  const pids = snapshot(root.pid as number).map((p) => p.pid);
  root.kill('SIGTERM');
  const left = () => pids.filter(alive);
  await until('the stack to stop', 30_000, () => (left().length === 0 ? true : undefined)).catch(() => {
    for (const pid of left()) process.kill(pid, 'SIGKILL');
  });
}

/**
 * A new, empty database: idle means no work at all — left-over crawls or batches of earlier runs
 * in the shared one would be resumed by the workers' reconcilers and measured as idle.
 */
async function freshDatabase(): Promise<string> {
  const url = new URL(benchEnv.DATABASE_URL);
  // Named after the given database: two runs against different databases do not drop each other's.
  url.pathname = `${url.pathname}_footprint`;
  const admin = new URL(benchEnv.DATABASE_URL);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  await migrateDatabase(url.toString());
  return url.toString();
}

/** One JS page: the browser launches, then closes BROWSER_IDLE_CLOSE_MS after it. */
async function browserOnDemand(
  stack: ChildProcess,
  base: string,
  headers: Record<string, string>,
): Promise<void> {
  const site = await startFixtureSite({ pages: 1 });
  try {
    const res = await request(`${base}/v1/scrape`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `${site.url}/js-only`, formats: ['markdown'] }),
    });
    await res.body.text();
    const chromium = snapshot(stack.pid as number).filter((p) => p.role === 'chromium');
    console.log(
      `after one JS page (HTTP ${res.statusCode}): ${chromium.length} chromium processes, ` +
        `${total(chromium, 'pssMb').toFixed(0)} MB PSS (${total(chromium, 'rssMb').toFixed(0)} MB RSS)`,
    );
    const started = Date.now();
    await until('the idle close', IDLE_CLOSE_MS + 30_000, () =>
      snapshot(stack.pid as number).some((p) => p.role === 'chromium') ? undefined : true,
    );
    console.log(`browser closed ${((Date.now() - started) / 1000).toFixed(1)} s later`);
  } finally {
    await site.close();
  }
}

async function runMode(
  mode: Mode,
  env: Record<string, string>,
  base: string,
  headers: Record<string, string>,
  urls: string[],
): Promise<ModeResult> {
  const stack = startStack(mode, env);
  try {
    const healthyMs = [await timeToHealthy(stack, mode, base)];
    for (let i = 0; i < RESTARTS; i++) healthyMs.push(await restartApi(stack, mode, base));
    console.log(`\n== ${mode}: spawn → /healthz 200: ${healthyMs.map((ms) => `${ms} ms`).join(', ')}`);
    const idle = await idleTable(stack, mode);
    printTable(`== ${mode}, idle (${SETTLE_MS / 1000} s up, median of ${WINDOW_MS / 1000} s)`, idle);
    await waitHealthy(base);
    if (args.browser) await browserOnDemand(stack, base, headers);
    const batches: Batch[] = [];
    console.log(`\n== ${mode}, under load: ${BATCHES} batches of ${PAGES} article pages`);
    console.log(
      `${'batch'.padEnd(6)} ${'peak Node RSS'.padStart(14)} ${'peak tree RSS'.padStart(14)} ${'pages/s'.padStart(8)}`,
    );
    for (let b = 0; b < BATCHES; b++) {
      const tagged = Array.from(
        { length: PAGES },
        (_, i) => `${urls[i % urls.length]}?m=${mode}&b=${b}&i=${i}`,
      );
      const batch = await loadBatch(stack, base, headers, tagged);
      batches.push(batch);
      console.log(
        `${String(b + 1).padEnd(6)} ${`${batch.peakNodeMb.toFixed(0)} MB`.padStart(14)} ${`${batch.peakTreeMb.toFixed(0)} MB`.padStart(14)} ${batch.pagesPerSec.toFixed(1).padStart(8)}` +
          (batch.failed ? `  (${batch.failed} failed)` : ''),
      );
    }
    return { healthyMs, idle, batches };
  } finally {
    await stopTree(stack);
  }
}

function summary(results: Map<Mode, ModeResult>): void {
  console.log('\n== summary');
  for (const [mode, r] of results) {
    const node = total(r.idle.filter(isNode), 'rssMb');
    const pss = total(r.idle.filter(isNode), 'pssMb');
    const first = r.batches[0];
    const last = r.batches.at(-1);
    const steady = r.batches.slice(WARM_UP_BATCHES).map((b) => b.peakNodeMb);
    const growth = steady.length >= 2 ? peakGrowth(steady) : undefined;
    const flat =
      first && last
        ? `peak ${first.peakNodeMb.toFixed(0)} → ${last.peakNodeMb.toFixed(0)} MB (max ${Math.max(...r.batches.map((b) => b.peakNodeMb)).toFixed(0)}); ` +
          (growth
            ? `after the warm-up batch ${growth.start.toFixed(0)} → ${growth.end.toFixed(0)} MB (fitted, ${(growth.share * 100).toFixed(1)} %): ` +
              (growth.share <= FLAT_TOLERANCE
                ? `flat (within ${FLAT_TOLERANCE * 100} %)`
                : `NOT flat (grew more than ${FLAT_TOLERANCE * 100} %)`)
            : 'too few batches to say whether flat')
        : 'no batches';
    console.log(
      `${mode.padEnd(12)} idle Node ${node.toFixed(0)} MB RSS / ${pss.toFixed(0)} MB PSS in ${r.idle.filter(isNode).length} processes; ` +
        `healthy in ${median(r.healthyMs)} ms (median); under load ${flat}; ` +
        `${median(r.batches.map((b) => b.pagesPerSec)).toFixed(1)} pages/s (median)`,
    );
  }
  const one = results.get('one-process');
  const multi = results.get('multi');
  if (one) {
    const idle = total(one.idle.filter(isNode), 'rssMb');
    const healthy = median(one.healthyMs);
    console.log(
      `one-process targets: idle ${idle.toFixed(0)} MB (≤ 200) ${idle <= 200 ? 'ok' : 'OVER'}; ` +
        `healthy ${healthy} ms (≤ 500) ${healthy <= 500 ? 'ok' : 'OVER'}`,
    );
  }
  if (one?.batches.length && multi?.batches.length) {
    const ratio =
      median(one.batches.map((b) => b.pagesPerSec)) / median(multi.batches.map((b) => b.pagesPerSec));
    console.log(
      `throughput one-process / multi-process: ${ratio.toFixed(2)} (target ≥ 0.85) ${ratio >= 0.85 ? 'ok' : 'UNDER'}`,
    );
  }
}

async function main(): Promise<void> {
  const databaseUrl = await freshDatabase();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: benchEnv.REDIS_URL,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_TARGETS: 'true',
    QUEUE_PREFIX: `bench-footprint-${Date.now()}`,
    BROWSER_IDLE_CLOSE_MS: String(IDLE_CLOSE_MS),
  };
  const site = await startArticleSite();
  const { headers } = await benchAccount(10 * BATCHES * PAGES + 1_000, databaseUrl);
  const results = new Map<Mode, ModeResult>();
  try {
    for (const mode of modes) results.set(mode, await runMode(mode, env, base, headers, site.urls));
  } finally {
    await site.close();
  }
  summary(results);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
