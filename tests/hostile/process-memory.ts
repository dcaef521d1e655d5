/**
 * Memory of a process and all its descendants (a worker and its Chromium), read from /proc —
 * Linux only, which is where the service runs. Sampled on an interval to get a peak. The measure
 * is PSS (proportional set size): Chromium's dozen processes share most of their pages, and a
 * plain RSS sum counted them up to twice (1,347 MB RSS summed vs 607 MB PSS for one idle tree).
 */
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | undefined {
  try {
    // comm (field 2) may hold spaces or parentheses: parse after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[1]);
  } catch {
    return undefined;
  }
}

/** `root` and every live descendant. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop() as number;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

function pssBytes(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0; // exited between listing and reading
  }
}

/** PSS of the tree in MB: what the tree costs the machine, shared pages split among sharers. */
export function treeMemoryMb(root: number): number {
  return Math.round(processTree(root).reduce((sum, pid) => sum + pssBytes(pid), 0) / 1024 / 1024);
}

/**
 * Samples the trees of named processes every `everyMs`; `peaks()` since the last `reset()`.
 * `onSample` sees every sample (the runner's memory guard lives there).
 */
export class MemorySampler {
  private readonly peak = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly roots: () => Map<string, number>,
    private readonly onSample: (name: string, mb: number) => void = () => {},
  ) {}

  start(everyMs = 500): void {
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  sample(): Map<string, number> {
    const now = new Map<string, number>();
    for (const [name, pid] of this.roots()) {
      const mb = treeMemoryMb(pid);
      now.set(name, mb);
      this.peak.set(name, Math.max(this.peak.get(name) ?? 0, mb));
      this.onSample(name, mb);
    }
    return now;
  }

  reset(): void {
    this.peak.clear();
  }

  peaks(): Map<string, number> {
    return new Map(this.peak);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
