/**
 * `pnpm test:hostile`: every hostile case × scrape, browser scrape, batch, crawl, map, extract and
 * monitor against the service running as separate processes; prints one row per cell (expected,
 * got, time against budget, credits, the worker tree's peak and settled memory (PSS)) and exits non-zero when a
 * cell fails. `--cases a,b` and `--endpoints x,y` narrow the run. See docs/reliability/hostile.md.
 */
import { parseArgs } from 'node:util';
import { rawEnv } from '@wcs/config';
import { AccountsRepository, ApiKeysRepository, CreditsRepository, createDb } from '@wcs/db';
import {
  type FakeLlmServer,
  HOSTILE_CASES,
  type HostileCase,
  type HostileOrigin,
  type HostileSite,
  startFakeAnthropic,
  startHostileSite,
} from '@wcs/testing';
import {
  type CellContext,
  type CellResult,
  concurrentBrowserCell,
  crawlCell,
  ENDPOINTS,
  type Endpoint,
  mapCell,
  runCell,
  STACK_BUDGET_ENV,
} from './hostile-cells';
import { type ProcessStack, type ServiceName, startProcessStack } from './hostile-process-stack';
import { MemorySampler } from './process-memory';

/** A service tree above this is killed (and the cell fails): the machine must survive the run. */
const GUARD_MB = 3_000;
/** After a cell the worker's tree (process + Chromium, PSS) must settle under this. */
const AFTER_BOUND_MB = 1_000;
const SETTLE_DEADLINE_MS = 20_000;

const SERVICE_OF: Record<Endpoint, ServiceName> = {
  scrape: 'scrape-worker',
  browser: 'scrape-worker',
  batch: 'scrape-worker',
  crawl: 'crawl-worker',
  map: 'crawl-worker',
  extract: 'extract-worker',
  monitor: 'monitor-scheduler',
};
/** Browser cases also run four at once (the memory ceiling must hold for the pool, not one page). */
const CONCURRENT_CASES: HostileCase[] = ['huge', 'gzip-bomb', 'app-shell'];
const ROBOTS_ORIGINS: HostileOrigin[] = ['robots-huge', 'sitemap-self', 'sitemap-million'];

interface Row extends CellResult {
  peakMb: number;
  afterMb: number;
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function printRow(r: Row): void {
  const cells = [
    pad(r.name, 22),
    pad(r.endpoint, 8),
    pad(r.expected, 32),
    pad(r.got, 32),
    pad(`${r.ms}/${r.budgetMs}`, 12),
    pad(`${r.credits}/${r.expectedCredits}`, 5),
    pad(`${r.peakMb}/${r.afterMb}`, 10),
    r.pass ? 'pass' : 'FAIL',
  ];
  console.log(`| ${cells.join(' | ')} | ${r.notes.join('; ')} |`);
}

async function main(): Promise<number> {
  // `pnpm test:hostile -- --cases …` passes the `--` through.
  const args = process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--'));
  const { values } = parseArgs({
    args,
    options: { cases: { type: 'string' }, endpoints: { type: 'string' } },
  });
  const cases = (values.cases?.split(',') ?? [...HOSTILE_CASES]) as HostileCase[];
  const endpoints = (values.endpoints?.split(',') ?? [...ENDPOINTS]) as Endpoint[];
  const unknown = [
    ...cases.filter((c) => !(HOSTILE_CASES as readonly string[]).includes(c)),
    ...endpoints.filter((e) => !(ENDPOINTS as readonly string[]).includes(e)),
  ];
  if (unknown.length) throw new Error(`unknown case or endpoint: ${unknown.join(', ')}`);
  const databaseUrl = rawEnv('DATABASE_URL');
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run through scripts/with-stores.ts');

  const db = createDb(databaseUrl);
  let site: HostileSite | undefined;
  let model: FakeLlmServer | undefined;
  let stack: ProcessStack | undefined;
  let sampler: MemorySampler | undefined;
  const rows: Row[] = [];
  // Ctrl-C / SIGTERM: stop the service processes (and their Chromium) before leaving.
  const interrupted = (signal: NodeJS.Signals) => {
    console.log(`${signal}: stopping the stack`);
    void Promise.allSettled([stack?.close(), site?.close(), model?.close()]).then(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    site = await startHostileSite();
    model = await startFakeAnthropic(() => ({ data: { title: 'hostile' } }));
    stack = await startProcessStack({
      DATABASE_URL: databaseUrl,
      REDIS_URL: rawEnv('REDIS_URL') ?? 'redis://127.0.0.1:6379',
      // The hostile site is on 127.0.0.1 (see docs/reliability/hostile.md for what this hides).
      ALLOW_PRIVATE_TARGETS: 'true',
      BROWSER_MAX_PAGES: '2',
      ANTHROPIC_API_KEY: 'sk-ant-hostile',
      ANTHROPIC_BASE_URL: model.url,
      EXTRACT_MODEL: 'claude-fake',
      EXTRACT_MODEL_MAX_RETRIES: '0',
      ...STACK_BUDGET_ENV,
    });
    const running = stack;
    const tripped = new Set<string>();
    sampler = new MemorySampler(
      () => running.pids(),
      (name, mb) => {
        if (mb <= GUARD_MB || tripped.has(name)) return;
        tripped.add(name);
        console.log(`! ${name} reached ${mb} MB > ${GUARD_MB} MB: killed and restarted`);
        void running.killAndRestart(name as ServiceName);
      },
    );
    sampler.start();
    const accounts = new AccountsRepository(db);
    const keys = new ApiKeysRepository(db);
    const credits = new CreditsRepository(db);
    const baseUrl = stack.baseUrl;
    const ctx: CellContext = {
      site,
      async newAccount() {
        const a = await accounts.create({ plan: 'hobby', credits: 1_000 });
        const k = await keys.create(a.accountId);
        return { baseUrl, accountId: a.accountId, auth: { Authorization: `Bearer ${k.apiKey}` } };
      },
      balance: (id) => credits.balance(id),
    };
    console.log(`service at ${baseUrl}, hostile site at ${site.url}, logs in ${stack.logDir}`);
    console.log(
      `| ${['case', 'endpoint', 'expected', 'got', 'ms/budget', 'credits got/exp', 'PSS MB peak/after', 'result', 'notes'].join(' | ')} |`,
    );
    console.log(`|${' --- |'.repeat(9)}`);

    const measure = async (endpoint: Endpoint, run: () => Promise<CellResult>) => {
      const service = SERVICE_OF[endpoint];
      tripped.clear();
      sampler?.reset();
      const result = await run().catch(
        (err: unknown): CellResult => ({
          name: '?',
          endpoint,
          expected: '?',
          got: `threw ${String(err).slice(0, 80)}`,
          ms: 0,
          budgetMs: 0,
          credits: 0,
          expectedCredits: 0,
          pass: false,
          notes: [String(err)],
        }),
      );
      // Poll the settled memory with a deadline: Chromium and the heap give memory back in steps.
      let after = sampler?.sample().get(service) ?? 0;
      const end = Date.now() + SETTLE_DEADLINE_MS;
      while (after > AFTER_BOUND_MB && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 500));
        after = sampler?.sample().get(service) ?? 0;
      }
      const row: Row = { ...result, peakMb: sampler?.peaks().get(service) ?? 0, afterMb: after };
      if (tripped.has(service)) row.notes.push(`memory guard: ${service} > ${GUARD_MB} MB`);
      if (after > AFTER_BOUND_MB) row.notes.push(`PSS ${after} MB > ${AFTER_BOUND_MB} MB after`);
      row.pass = row.notes.length === 0;
      rows.push(row);
      printRow(row);
    };

    const hostileSite = site;
    for (const endpoint of endpoints) {
      for (const name of cases) await measure(endpoint, () => runCell(ctx, name, endpoint));
      if (endpoint === 'browser') {
        for (const name of CONCURRENT_CASES.filter((c) => cases.includes(c)))
          await measure(endpoint, () => concurrentBrowserCell(ctx, name, 4));
      }
      if (endpoint === 'map' || endpoint === 'crawl') {
        for (const origin of ROBOTS_ORIGINS)
          await measure(endpoint, () =>
            endpoint === 'map' ? mapCell(ctx, 'page', origin) : crawlCell(ctx, 'page', origin),
          );
      }
    }
    const udp = hostileSite.privateListeners.udpPackets();
    console.log(`private listeners: ${udp} UDP packets (must be 0)`);
    const failed = rows.filter((r) => !r.pass);
    console.log(`${rows.length} cells, ${rows.length - failed.length} pass, ${failed.length} fail`);
    return failed.length === 0 && udp === 0 ? 0 : 1;
  } finally {
    sampler?.stop();
    await stack?.close();
    await Promise.all([site?.close(), model?.close()]);
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
