/**
 * CPU seconds spent by each part of the stack during a stretch of a bench (from /proc: user +
 * system time of every thread of a process): who pays for a page — the gateway, the worker, its
 * content threads, PostgreSQL, Redis, or the bench process itself serving the pages.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** utime + stime of a process (all its threads), in seconds; 0 when it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
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

export type CpuParts = Record<string, number>;

/** CPU seconds so far of the named processes, plus PostgreSQL and Redis as a whole. */
export function cpuSnapshot(parts: Record<string, number | undefined>): CpuParts {
  const out: CpuParts = {};
  for (const [name, pid] of Object.entries(parts)) out[name] = pid ? cpuSeconds(pid) : 0;
  out.postgresql = pidsNamed('postgres').reduce((s, p) => s + cpuSeconds(p), 0);
  out.redis = pidsNamed('redis-server').reduce((s, p) => s + cpuSeconds(p), 0);
  return out;
}

/** What each part spent between two snapshots, in CPU ms per page. */
export function cpuPerPage(before: CpuParts, after: CpuParts, pages: number): Array<[string, number]> {
  return Object.keys(after).map((k) => [k, (((after[k] ?? 0) - (before[k] ?? 0)) * 1000) / pages]);
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
