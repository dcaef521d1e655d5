/**
 * A memory ceiling per Chromium renderer: while renders run, samples the renderer processes
 * (pids from the browser's own `SystemInfo.getProcessInfo`, RSS from `/proc/<pid>/status`) and
 * SIGKILLs one past the ceiling. The page it hosted emits 'crash'; the engine answers that render
 * with TargetTooLargeError and recycles its slot. Linux only: without /proc it does nothing.
 */
import { readFile } from 'node:fs/promises';
import type { CDPSession } from 'playwright-core';
import type { RendererLogger } from './types';

export interface ChromiumProcess {
  pid: number;
  type: string;
  rssBytes: number;
  /** Proportional set size (shared pages split between their users), when asked for. */
  pssBytes?: number;
}

export interface MemoryWatchdogOptions {
  ceilingBytes: number;
  intervalMs: number;
  /** The browser-level CDP session, undefined while no browser runs. */
  session: () => Promise<CDPSession | undefined>;
  logger?: RendererLogger;
}

/** Pss of a process in bytes (its share of shared pages counted once across processes). */
export async function pssOf(pid: number): Promise<number | undefined> {
  try {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = /^Pss:\s+(\d+)\s+kB/m.exec(rollup)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** VmRSS of a process in bytes, undefined when it is gone. */
export async function rssOf(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

export class MemoryWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private sampling = false;
  private lastKillAt = 0;
  /** Highest renderer RSS seen since the last resetPeak() (for figures). */
  peakRendererBytes = 0;
  kills = 0;

  constructor(private readonly opts: MemoryWatchdogOptions) {}

  /** Samples until stop(); unref'd, so it never keeps the process alive. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sample(), this.opts.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** True when this watchdog killed a renderer at or after `since` (epoch ms). */
  killedSince(since: number): boolean {
    return this.lastKillAt >= since;
  }

  resetPeak(): void {
    this.peakRendererBytes = 0;
  }

  /** Every Chromium process with its RSS (browser, utility, GPU, renderers); `withPss` reads smaps too. */
  async processes(withPss = false): Promise<ChromiumProcess[]> {
    const session = await this.opts.session();
    if (!session) return [];
    // Typed by playwright-core's protocol definitions; a closed browser rejects (no processes).
    const info = await session.send('SystemInfo.getProcessInfo').catch(() => undefined);
    const out: ChromiumProcess[] = [];
    for (const p of info?.processInfo ?? []) {
      const rssBytes = await rssOf(p.id);
      if (rssBytes === undefined) continue;
      const pssBytes = withPss ? await pssOf(p.id) : undefined;
      out.push({ pid: p.id, type: p.type, rssBytes, ...(pssBytes === undefined ? {} : { pssBytes }) });
    }
    return out;
  }

  private async sample(): Promise<void> {
    if (this.sampling) return; // a slow sample never stacks up
    this.sampling = true;
    try {
      for (const p of await this.processes()) {
        if (p.type !== 'renderer') continue;
        if (p.rssBytes > this.peakRendererBytes) this.peakRendererBytes = p.rssBytes;
        if (p.rssBytes <= this.opts.ceilingBytes) continue;
        this.opts.logger?.warn(
          {
            pid: p.pid,
            rssMb: Math.round(p.rssBytes / 2 ** 20),
            ceilingMb: this.opts.ceilingBytes / 2 ** 20,
          },
          'chromium renderer over its memory ceiling: killed',
        );
        try {
          process.kill(p.pid, 'SIGKILL');
          this.lastKillAt = Date.now();
          this.kills++;
        } catch {
          // Already gone.
        }
      }
    } finally {
      this.sampling = false;
    }
  }
}
