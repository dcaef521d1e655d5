/**
 * `pnpm bench:footprint`: the memory of the whole stack as the run command starts it, idle, process
 * by process — the compiled stack (scripts/dist/supervise.js --with-stores: one supervisor, one
 * `node dist/main.js` per service) next to the tsx-based one it replaced (pnpm → tsx → one
 * `node --import tsx src/main.ts` per service, bench/footprint-tsx-stack.ts), in the same run.
 *
 * Idle = every service up for 30 s, then each process's median over 10 s of samples. RSS is what the
 * targets are stated in (each service ≤ 110 MB, Node processes together ≤ 600 MB); PSS splits the
 * pages the processes share (the node binary, ~40 MB of each RSS) and is what the machine pays.
 * Then, on the compiled stack: one page that needs JavaScript, the browser it launches, and the
 * idle close (BROWSER_IDLE_CLOSE_MS) that takes it away again.
 *
 *   pnpm bench:footprint [--skip-tsx]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrateDatabase } from '@wcs/db';
import { startFixtureSite } from '@wcs/testing';
import pg from 'pg';
import { request } from 'undici';
import { benchAccount, benchEnv, freePort, ROOT, waitHealthy } from './bench-utils';

const { values: args } = parseArgs({ options: { 'skip-tsx': { type: 'boolean', default: false } } });
const IDLE_CLOSE_MS = 5_000;
const SETTLE_MS = 30_000;
const WINDOW_MS = 10_000;
const SERVICE_LIMIT_MB = 110;
const TOTAL_LIMIT_MB = 600;

interface Proc {
  pid: number;
  role: string;
  rssMb: number;
  pssMb: number;
}

function readProc(
  pid: number,
): { ppid: number; cmd: string; cwd: string; rssKb: number; pssKb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    const pss = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return {
      ppid: Number(/PPid:\s+(\d+)/.exec(status)?.[1]),
      cmd,
      cwd: readlinkSync(`/proc/${pid}/cwd`),
      rssKb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0),
      pssKb: Number(pss ?? 0),
    };
  } catch {
    return null; // gone, or a kernel thread
  }
}

/** What a process of the stack is, from its command line and directory. */
function roleOf(cmd: string, cwd: string): string {
  if (/chrom/i.test(cmd.split(' ')[0] ?? '')) return 'chromium';
  if (/esbuild/.test(cmd)) return 'esbuild';
  const service = /\/services\/([^/]+)$/.exec(cwd)?.[1];
  if (service && /main\.(js|ts)/.test(cmd)) return service;
  const [, script = ''] = cmd.split(' ');
  // tsx's cli lives under node_modules/.pnpm too: ask for it first.
  if (/tsx\/dist\/cli/.test(script)) return 'tsx';
  if (/pnpm\.c?js$|bin\/pnpm$/.test(script)) return 'pnpm';
  if (/supervise|footprint-tsx-stack/.test(cmd)) return 'supervisor';
  if (/with-stores/.test(cmd)) return 'with-stores';
  return path.basename(cmd.split(' ')[0] ?? '?');
}

/** The stack's processes now: the root and every descendant. */
function snapshot(root: number): Proc[] {
  const all = new Map<number, NonNullable<ReturnType<typeof readProc>>>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const p = readProc(Number(entry));
    if (p) all.set(Number(entry), p);
  }
  const out: Proc[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop() as number;
    const p = all.get(pid);
    if (!p) continue;
    out.push({ pid, role: roleOf(p.cmd, p.cwd), rssMb: p.rssKb / 1024, pssMb: p.pssKb / 1024 });
    for (const [child, c] of all) if (c.ppid === pid) stack.push(child);
  }
  return out;
}

const SERVICE_COUNT = 6;
const isNode = (p: Proc) => !['chromium', 'esbuild'].includes(p.role);
const total = (ps: Proc[], key: 'rssMb' | 'pssMb') => ps.reduce((s, p) => s + p[key], 0);

async function until<T>(
  what: string,
  ms: number,
  fn: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Every service up for SETTLE_MS, then the median of each process over WINDOW_MS: the idle table.
 * V8's memory reducer gives back startup's garbage some seconds after a process turns idle; on
 * two cores with six services starting at once that can take 20 s, and sampling a window keeps a
 * single GC's moment from deciding the figure.
 */
async function idleTable(root: ChildProcess, base: string): Promise<Proc[]> {
  await waitHealthy(base);
  const pid = root.pid as number;
  await until('all six services', 90_000, () =>
    new Set(snapshot(pid).map((p) => p.role)).size >= SERVICE_COUNT ? true : undefined,
  );
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const samples = new Map<number, Proc[]>();
  for (const end = Date.now() + WINDOW_MS; Date.now() < end; ) {
    for (const p of snapshot(pid)) samples.set(p.pid, [...(samples.get(p.pid) ?? []), p]);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  return [...samples.values()].map((ps) => ({
    ...(ps[0] as Proc),
    rssMb: mid(ps.map((p) => p.rssMb)),
    pssMb: mid(ps.map((p) => p.pssMb)),
  }));
}

function printTable(title: string, procs: Proc[]): void {
  console.log(`\n${title}`);
  console.log(`${'process'.padEnd(20)} ${'pid'.padStart(7)} ${'RSS MB'.padStart(8)} ${'PSS MB'.padStart(8)}`);
  for (const p of [...procs].sort((a, b) => a.role.localeCompare(b.role))) {
    console.log(
      `${p.role.padEnd(20)} ${String(p.pid).padStart(7)} ${p.rssMb.toFixed(1).padStart(8)} ${p.pssMb.toFixed(1).padStart(8)}`,
    );
  }
  const node = procs.filter(isNode);
  const other = procs.filter((p) => !isNode(p));
  console.log(
    `${'Node processes'.padEnd(20)} ${String(node.length).padStart(7)} ${total(node, 'rssMb').toFixed(0).padStart(8)} ${total(node, 'pssMb').toFixed(0).padStart(8)}`,
  );
  if (other.length) {
    console.log(
      `${'esbuild + chromium'.padEnd(20)} ${String(other.length).padStart(7)} ${total(other, 'rssMb').toFixed(0).padStart(8)} ${total(other, 'pssMb').toFixed(0).padStart(8)}`,
    );
  }
}

/** SIGTERM every process of the stack (pnpm does not pass signals on), then wait for them. */
async function stopTree(root: ChildProcess): Promise<void> {
  const pids = snapshot(root.pid as number).map((p) => p.pid);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const alive = () => pids.filter((pid) => readProc(pid) !== null);
  await until('the stack to stop', 30_000, () => (alive().length === 0 ? true : undefined)).catch(() => {
    for (const pid of alive()) process.kill(pid, 'SIGKILL');
  });
}

function startStack(mode: 'compiled' | 'tsx', env: Record<string, string>): ChildProcess {
  const [cmd, ...rest] =
    mode === 'compiled'
      ? [process.execPath, path.join(ROOT, 'scripts/dist/supervise.js'), '--with-stores']
      : ['pnpm', '--silent', 'exec', 'tsx', path.join(ROOT, 'bench/footprint-tsx-stack.ts')];
  return spawn(cmd as string, rest, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * A new, empty database: idle means no work at all — left-over crawls or batches of earlier runs
 * in the shared one would be resumed by the workers' reconcilers and measured as idle.
 */
async function freshDatabase(): Promise<string> {
  const url = new URL(benchEnv.DATABASE_URL);
  url.pathname = '/wcs_footprint';
  const admin = new URL(benchEnv.DATABASE_URL);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query('DROP DATABASE IF EXISTS wcs_footprint WITH (FORCE)');
  } finally {
    await client.end();
  }
  await migrateDatabase(url.toString());
  return url.toString();
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
  const tables = new Map<string, Proc[]>();
  for (const mode of args['skip-tsx'] ? (['compiled'] as const) : (['tsx', 'compiled'] as const)) {
    const stack = startStack(mode, env);
    try {
      const idle = await idleTable(stack, base);
      tables.set(mode, idle);
      printTable(`== ${mode} stack, idle`, idle);
      if (mode === 'compiled') await browserOnDemand(stack, base, databaseUrl);
    } finally {
      await stopTree(stack);
    }
  }
  summary(tables);
}

/** One JS page: the browser launches, then closes BROWSER_IDLE_CLOSE_MS after it. */
async function browserOnDemand(stack: ChildProcess, base: string, databaseUrl: string): Promise<void> {
  const site = await startFixtureSite({ pages: 1 });
  try {
    const { headers } = await benchAccount(100, databaseUrl);
    const res = await request(`${base}/v1/scrape`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `${site.url}/js-only`, formats: ['markdown'] }),
    });
    await res.body.text();
    const rendered = snapshot(stack.pid as number);
    const chromium = rendered.filter((p) => p.role === 'chromium');
    console.log(
      `\nafter one JS page (HTTP ${res.statusCode}): ${chromium.length} chromium processes, ` +
        `${total(chromium, 'pssMb').toFixed(0)} MB PSS (${total(chromium, 'rssMb').toFixed(0)} MB RSS)`,
    );
    const started = Date.now();
    await until('the idle close', IDLE_CLOSE_MS + 30_000, () =>
      snapshot(stack.pid as number).some((p) => p.role === 'chromium') ? undefined : true,
    );
    console.log(
      `browser closed ${((Date.now() - started) / 1000).toFixed(1)} s later (BROWSER_IDLE_CLOSE_MS=${IDLE_CLOSE_MS})`,
    );
  } finally {
    await site.close();
  }
}

function summary(tables: Map<string, Proc[]>): void {
  const compiled = tables.get('compiled') ?? [];
  const tsx = tables.get('tsx');
  console.log('\n== per service (RSS MB / PSS MB)');
  console.log(`${'service'.padEnd(20)} ${tsx ? 'tsx'.padStart(15) : ''} ${'compiled'.padStart(15)}`);
  const rows = [...new Set([...(tsx ?? []), ...compiled].map((p) => p.role))].filter((r) => r !== 'chromium');
  const cell = (ps: Proc[] | undefined, role: string) => {
    const mine = (ps ?? []).filter((p) => p.role === role);
    return mine.length ? `${total(mine, 'rssMb').toFixed(0)} / ${total(mine, 'pssMb').toFixed(0)}` : '—';
  };
  for (const role of rows.sort()) {
    console.log(
      `${role.padEnd(20)} ${tsx ? cell(tsx, role).padStart(15) : ''} ${cell(compiled, role).padStart(15)}`,
    );
  }
  const line = (ps: Proc[] | undefined) =>
    ps
      ? `${total(ps.filter(isNode), 'rssMb').toFixed(0)} / ${total(ps.filter(isNode), 'pssMb').toFixed(0)}`
      : '';
  console.log(`${'Node total'.padEnd(20)} ${line(tsx).padStart(15)} ${line(compiled).padStart(15)}`);
  const worst = Math.max(
    ...compiled.filter((p) => /worker|gateway|scheduler|dispatcher/.test(p.role)).map((p) => p.rssMb),
  );
  const sum = total(compiled.filter(isNode), 'rssMb');
  console.log(
    `\ncompiled: largest service ${worst.toFixed(0)} MB RSS (target ≤ ${SERVICE_LIMIT_MB}) ${worst <= SERVICE_LIMIT_MB ? 'ok' : 'OVER'}; ` +
      `Node processes ${sum.toFixed(0)} MB RSS (target ≤ ${TOTAL_LIMIT_MB}) ${sum <= TOTAL_LIMIT_MB ? 'ok' : 'OVER'}; ` +
      `chromium processes idle: ${compiled.filter((p) => p.role === 'chromium').length}`,
  );
  if (tsx) {
    const before = total(tsx, 'rssMb');
    console.log(
      `whole tree RSS: tsx ${before.toFixed(0)} MB → compiled ${total(compiled, 'rssMb').toFixed(0)} MB (${(before / Math.max(1, total(compiled, 'rssMb'))).toFixed(2)}× less)`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
