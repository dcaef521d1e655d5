import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * One memory-reducing collection a few seconds after a service started. Startup (module loading,
 * schema building, Prisma's query compiler) leaves ~20 MB of garbage and empty heap pages; V8's
 * memory reducer returns them only once it sees the process idle, which with six services
 * starting on two cores took from 8 s to over 40 s — so an idle stack's footprint depended on
 * when it was looked at (`pnpm bench:footprint`: monitor-scheduler 92–112 MB). `last-resort` is
 * the reducer's own kind of GC (compacting, releasing pages); it runs once, ~10 ms on the main
 * thread, and `gc` is exposed for this call only.
 */
export function collectStartupGarbage(afterMs = 5_000): void {
  setTimeout(() => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as Gc | undefined;
    gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  }, afterMs).unref();
}
