/**
 * CPU seconds spent by each part of the stack during a stretch of a bench (from /proc: user +
 * system time of every thread of a process): who pays for a page — the gateway, the worker, its
 * content threads, PostgreSQL, Redis, or the bench process itself serving the pages.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** utime + stime of a process (all its threads, exited ones included), in seconds; 0 when it is gone. */
function cpuSeconds(pid: number): number {
  return statSeconds(`/proc/${pid}/stat`);
}

function statSeconds(file: string): number {
  try {
    const stat = readFileSync(file, 'utf8');
    // Fields after the command (which may contain spaces), 1-based: utime 14, stime 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Every process whose command name is `comm` (postgres backends, redis-server). */
function pidsNamed(comm: string): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() === comm) pids.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU seconds so far of a process, or of each process of a server by pid. */
export type CpuParts = Record<string, number | Map<number, number>>;

/** CPU seconds so far of the named processes, plus PostgreSQL and Redis by process. */
export function cpuSnapshot(parts: Record<string, number | undefined>): CpuParts {
  const out: CpuParts = {};
  for (const [name, pid] of Object.entries(parts)) out[name] = pid ? cpuSeconds(pid) : 0;
  out.postgresql = new Map(pidsNamed('postgres').map((p) => [p, cpuSeconds(p)]));
  out.redis = new Map(pidsNamed('redis-server').map((p) => [p, cpuSeconds(p)]));
  return out;
}

/**
 * What a part spent between two snapshots. A server's processes are compared one by one: one that
 * exited meanwhile (a PostgreSQL backend whose pool closed it) is left out (its last moments are
 * not counted) rather than taking its whole CPU off the sum; one that started counts in full.
 */
function spent(
  before: number | Map<number, number> | undefined,
  after: number | Map<number, number>,
): number {
  if (typeof after === 'number') return after - (typeof before === 'number' ? before : 0);
  const was = before instanceof Map ? before : new Map<number, number>();
  let sum = 0;
  for (const [pid, seconds] of after) sum += seconds - (was.get(pid) ?? 0);
  return sum;
}

/** What each part spent between two snapshots, in CPU ms per page. */
export function cpuPerPage(before: CpuParts, after: CpuParts, pages: number): Array<[string, number]> {
  return Object.entries(after).map(([k, v]) => [k, (spent(before[k], v) * 1000) / pages]);
}

/** A markdown table of CPU ms per page by part, with the total. */
export function cpuTable(title: string, rows: Array<[string, number]>): string {
  const total = rows.reduce((s, [, ms]) => s + ms, 0);
  const lines = [title, '| part | CPU ms per page | share |', '|---|---:|---:|'];
  for (const [name, ms] of rows)
    lines.push(`| ${name} | ${ms.toFixed(2)} | ${total > 0 ? ((ms / total) * 100).toFixed(1) : '0.0'} % |`);
  lines.push(`| total | ${total.toFixed(2)} | 100 % |`);
  return lines.join('\n');
}

/** Thread ids of a live process (empty when it is gone). */
function threadIds(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}

/**
 * Resolves once the process's threads have not changed for a second: its start is over (the
 * runtime's threads and the content pool's warm-up threads are up).
 */
export async function settledThreads(pid: number | undefined): Promise<void> {
  if (!pid) return;
  let last = '';
  let same = 0;
  for (let i = 0; i < 150 && same < 5; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const now = threadIds(pid).join(',');
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

/** The name a content thread gives itself (packages/scraper/src/content-worker.cjs). */
const CONTENT_THREAD = 'wcs-content';

function threadName(pid: number, tid: number): string {
  try {
    return readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * A Node process's CPU seconds split three ways: its main thread (tid = pid: the event loop), the
 * content pool's threads (named `wcs-content`; those that exited count here too, as the rest of the
 * process's total), and the runtime's own threads (every other live thread — V8's GC and compiler
 * helpers, libuv's pool, where zlib and DNS run).
 */
export function threadSplit(name: string, pid: number | undefined): Record<string, number> {
  if (!pid) return {};
  const total = cpuSeconds(pid);
  const main = statSeconds(`/proc/${pid}/task/${pid}/stat`);
  const runtime = threadIds(pid)
    .filter((t) => t !== pid && threadName(pid, t) !== CONTENT_THREAD)
    .reduce((s, t) => s + statSeconds(`/proc/${pid}/task/${t}/stat`), 0);
  return {
    [`${name}: main thread`]: main,
    [`${name}: runtime threads (GC, libuv)`]: runtime,
    [`${name}: content threads`]: Math.max(0, total - main - runtime),
  };
}
