import { spawnSync } from 'node:child_process';

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
