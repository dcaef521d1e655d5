/** Shared pieces of the benchmark scripts: processes, ports, memory, concurrency, percentiles. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { loadEnv, rawEnv } from '@wcs/config';
import { AccountsRepository, ApiKeysRepository, createDb } from '@wcs/db';
import { compiledService, type ServiceName } from '@wcs/runtime';
import { request } from 'undici';
import { z } from 'zod';

export const ROOT = path.resolve(__dirname, '..');

/** RSS in KiB of a process and all its descendants (Chromium runs as children of a worker). */
export function treeRssKb(pid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const status = readFileSync(`/proc/${d}/status`, 'utf8');
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      rss.set(Number(d), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // process went away while we looked
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop() as number;
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

/**
 * PSS in KiB of a process and its descendants: shared pages (Chromium's processes share most of
 * theirs) are counted once across the tree instead of once per process as RSS does.
 */
export function treePssKb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // process went away while we looked
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop() as number;
    try {
      total += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone, or not ours to read
    }
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** A service as `pnpm start` runs it: its own process, compiled (`pnpm build` ran first). */
export function startService(name: ServiceName, extra: Record<string, string>): ChildProcess {
  const profDir = rawEnv('BENCH_CPU_PROF');
  const prof = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
  // Extra V8/Node flags for an experiment (e.g. `--max-semi-space-size=16`): after the services'
  // own, so that a flag given twice takes this value.
  const extraFlags = rawEnv('BENCH_NODE_FLAGS')?.split(/\s+/).filter(Boolean) ?? [];
  const { cwd, args } = compiledService(name);
  const script = args.slice(-1);
  return spawn(process.execPath, [...prof, ...args.slice(0, -1), ...extraFlags, ...script], {
    cwd,
    env: { ...process.env, ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Run fn over items with at most n in flight. */
export async function pool<T>(items: T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i] as T);
      }
    }),
  );
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Stores for benchmarks: what scripts/with-stores.ts resolved, else this machine's defaults. */
export const benchEnv = loadEnv(
  z.object({
    DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/wcs'),
    REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  }),
);

/** A fresh account with `credits` and its API key, as request headers. */
export async function benchAccount(
  credits: number,
  databaseUrl = benchEnv.DATABASE_URL,
): Promise<{ accountId: string; headers: Record<string, string> }> {
  const db = createDb(databaseUrl);
  try {
    const account = await new AccountsRepository(db).create({ plan: 'scale', credits });
    const { apiKey } = await new ApiKeysRepository(db).create(account.accountId);
    return {
      accountId: account.accountId,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    };
  } finally {
    await db.close();
  }
}

/**
 * `VACUUM (ANALYZE)` of `tables` when the server runs without autovacuum (this machine's test
 * server does): a deployment's autovacuum clears the dead row versions earlier work left (every
 * page of a crawl is updated three times), which otherwise pile up in the indexes each later
 * statement walks. Run outside the measured times; returns whether it ran (the bench says so).
 */
export async function vacuumUnlessAutovacuum(tables: readonly string[], databaseUrl = benchEnv.DATABASE_URL) {
  const db = createDb(databaseUrl);
  try {
    const { rows } = await db.pool.query<{ setting: string }>(
      "SELECT setting FROM pg_settings WHERE name = 'autovacuum'",
    );
    if (rows[0]?.setting === 'on') return false;
    await db.pool.query(`VACUUM (ANALYZE) ${tables.join(', ')}`);
    return true;
  } finally {
    await db.close();
  }
}

/** Wait (up to a minute) until a gateway answers GET /healthz with 200. */
export async function waitHealthy(base: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ok = await request(`${base}/healthz`).then(
      (r) => r.statusCode === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${base} did not become healthy within 60 s`);
}

/** Most URLs one POST /v1/batch/scrape takes. */
export const MAX_BATCH = 500;

/** "1.23×" and whether it reaches `target`. */
export function ratioLine(label: string, ours: number, theirs: number, target: number): string {
  const ratio = theirs > 0 ? ours / theirs : 0;
  return `${label}: ${ratio.toFixed(2)}× (target ≥ ${target.toFixed(1)}×: ${ratio >= target ? 'met' : 'NOT met'})`;
}

/** The script's arguments without a leading `--` (`pnpm bench:x -- --pages 50` passes it through). */
export function benchArgv(): string[] {
  const args = process.argv.slice(2);
  return args[0] === '--' ? args.slice(1) : args;
}
