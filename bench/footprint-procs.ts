/**
 * The process tree of a running stack for `pnpm bench:footprint`: each process's role (supervisor,
 * a service, the one-process service, chromium, …), RSS and PSS from /proc, and when it started.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

export interface Proc {
  pid: number;
  role: string;
  rssMb: number;
  pssMb: number;
  /** Start, in seconds since boot (the clock of `uptimeSecs`). */
  startSecs: number;
}

const TICKS_PER_SEC = 100;

function readProc(
  pid: number,
): { ppid: number; cmd: string; cwd: string; rssKb: number; pssKb: number; startSecs: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    const pss = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    // Field 22 of stat (after the parenthesised command name, which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(/PPid:\s+(\d+)/.exec(status)?.[1]),
      cmd,
      cwd: readlinkSync(`/proc/${pid}/cwd`),
      rssKb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0),
      pssKb: Number(pss ?? 0),
      startSecs: Number(fields[19]) / TICKS_PER_SEC,
    };
  } catch {
    return null; // gone, or a kernel thread
  }
}

export function alive(pid: number): boolean {
  return readProc(pid) !== null;
}

/** Seconds since boot now (the clock of Proc.startSecs). */
export function uptimeSecs(): number {
  return Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
}

/** What a process of the stack is, from its command line and directory. */
function roleOf(cmd: string, cwd: string): string {
  if (/chrom/i.test(cmd.split(' ')[0] ?? '')) return 'chromium';
  if (/esbuild/.test(cmd)) return 'esbuild';
  const service = /\/services\/([^/]+)$/.exec(cwd)?.[1];
  if (service && /main\.(js|ts)/.test(cmd)) return service;
  if (/supervise/.test(cmd)) return 'supervisor';
  if (/with-stores/.test(cmd)) return 'stores-keeper';
  return path.basename(cmd.split(' ')[0] ?? '?');
}

/** The stack's processes now: the root and every descendant. */
export function snapshot(root: number): Proc[] {
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
    out.push({
      pid,
      role: roleOf(p.cmd, p.cwd),
      rssMb: p.rssKb / 1024,
      pssMb: p.pssKb / 1024,
      startSecs: p.startSecs,
    });
    for (const [child, c] of all) if (c.ppid === pid) stack.push(child);
  }
  return out;
}

export const isNode = (p: Proc): boolean => !['chromium', 'esbuild'].includes(p.role);
export const total = (ps: Proc[], key: 'rssMb' | 'pssMb'): number => ps.reduce((s, p) => s + p[key], 0);

export function printTable(title: string, procs: Proc[]): void {
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
      `${'chromium'.padEnd(20)} ${String(other.length).padStart(7)} ${total(other, 'rssMb').toFixed(0).padStart(8)} ${total(other, 'pssMb').toFixed(0).padStart(8)}`,
    );
  }
}
