import { spawnSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';

/**
 * Processes descending from this one whose command name matches `comm` (from `ps`), as
 * "pid ppid comm" rows: what tests use to show that a tool we spawn (pdftoppm, tesseract) is
 * gone after a cancel or a deadline.
 */
export function descendantProcesses(comm: RegExp): string[] {
  const rows = (spawnSync('ps', ['-eo', 'pid=,ppid=,comm=']).stdout?.toString() ?? '')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((r) => r.length >= 3);
  const ours = new Set([String(process.pid)]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of rows)
      if (pid && ppid && ours.has(ppid) && !ours.has(pid)) {
        ours.add(pid);
        grew = true;
      }
  }
  return rows.filter(([pid, , c]) => pid && ours.has(pid) && comm.test(c ?? '')).map((r) => r.join(' '));
}

export interface TreeProcess {
  pid: number;
  ppid: number;
  /** The full command line. */
  args: string;
  /** Working directory ('' when it cannot be read). */
  cwd: string;
}

/** `root` and every live descendant, with command lines: what a run-command test inspects. */
export function processTreeOf(root: number): TreeProcess[] {
  const rows = (spawnSync('ps', ['-eo', 'pid=,ppid=,stat=,args=']).stdout?.toString() ?? '')
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && !m[3]?.startsWith('Z'))
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[4] ?? '' }));
  const tree: TreeProcess[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop() as number;
    const row = rows.find((r) => r.pid === pid);
    if (!row) continue;
    let cwd = '';
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // gone, or not ours to read
    }
    tree.push({ ...row, cwd });
    stack.push(...rows.filter((r) => r.ppid === pid).map((r) => r.pid));
  }
  return tree;
}

/** Chromium processes below this one (the browser, its zygotes, renderers, utilities, crashpad). */
export function chromiumPids(): number[] {
  return descendantProcesses(/^(chromium|chrome)/).map((row) => Number(row.split(' ')[0]));
}

/** `/proc/<pid>/stat` read: its command name, state letter and parent; undefined when gone. */
export function processStat(pid: number): { comm: string; state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const [state = '', ppid = ''] = stat.slice(close + 2).split(' ');
    return { comm: stat.slice(stat.indexOf('(') + 1, close), state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** Alive and not a zombie: an orphan reparented after its parent went counts too. */
export function processAlive(pid: number): boolean {
  const stat = processStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}
