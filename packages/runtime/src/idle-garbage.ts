import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = () => void;

export interface IdleGarbageOptions {
  /** The first collection, after start-up (default 5 s). */
  firstAfterMs?: number;
  /** How often an idle process is looked at afterwards (default 10 s). */
  everyMs?: number;
  /** Idle = the event loop was busy less than this share of the last period (default 5 %). */
  maxUtilization?: number;
  /** And its heap grew at least this much since the last collection (default 4 MiB). */
  minGrowthBytes?: number;
  /** Tests: told after each collection (bytes of heap in use). */
  onCollect?: (c: { heapBefore: number; heapAfter: number }) => void;
}

/**
 * Memory-reducing collections while a service is idle. Start-up (module loading, schema building,
 * Prisma's query compiler) and each periodic task (reconcilers, sweeps, polls) leave garbage and
 * empty heap pages that V8's memory reducer returns only when its heuristics see the process idle —
 * on two busy cores that took from seconds to minutes, so an idle stack's footprint depended on
 * when it was looked at (`pnpm bench:footprint`: one service or another 18 MB over its usual RSS).
 * So: one collection after start-up, then one whenever a period was idle and the process grew.
 * A full synchronous GC (it also releases empty pages) takes ~10 ms of the main thread; a busy
 * process is never interrupted by it. The services start with `--expose-gc` (SERVICE_NODE_FLAGS);
 * another process gets it here, at its first collection.
 */
export function collectIdleGarbage(o: IdleGarbageOptions = {}): () => void {
  let gc: Gc | undefined;
  let floor = 0;
  let last = performance.eventLoopUtilization();
  const collect = () => {
    if (!gc) {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as Gc;
    }
    const heapBefore = process.memoryUsage().heapUsed;
    // No options: Node 20's V8 ignores the call when given any (measured: nothing collected).
    gc();
    floor = process.memoryUsage().heapUsed;
    o.onCollect?.({ heapBefore, heapAfter: floor });
  };
  let every: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    collect();
    last = performance.eventLoopUtilization();
    every = setInterval(() => {
      const now = performance.eventLoopUtilization();
      const busy = performance.eventLoopUtilization(now, last).utilization;
      last = now;
      const grown = process.memoryUsage().heapUsed - floor >= (o.minGrowthBytes ?? 4 * 2 ** 20);
      if (busy < (o.maxUtilization ?? 0.05) && grown) collect();
    }, o.everyMs ?? 10_000).unref();
  }, o.firstAfterMs ?? 5_000).unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
