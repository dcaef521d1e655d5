/**
 * Cooperative time slicing for long synchronous loops (filtering 100k URLs, ranking, merging):
 * after `sliceMs` of work the loop awaits `setImmediate`, so timers, sockets, BullMQ lock renewal
 * and the other jobs of the same process run between slices. A loop that only awaits resolved
 * promises never lets I/O in; `setImmediate` does. Also the one place such loops learn that their
 * budget is over: `due()` is true once `signal` aborted, and `pause()` then answers false (stop
 * and keep what you have: the caller decides whether that is an answer or an error).
 *
 *   for (const u of urls) { if (slicer.due() && !(await slicer.pause())) break; … }
 */
import { setImmediate as nextMacrotask } from 'node:timers/promises';

/** Work between two yields: short enough that a 5 s lock renewal or a 1 s poll never waits long. */
export const DEFAULT_SLICE_MS = 10;
/** How many `due()` calls between two clock reads (a clock read costs more than a cheap step). */
const CHECK_EVERY = 64;

export class CpuSlicer {
  private sliceStart = performance.now();
  private calls = 0;
  /** Yields so far (for logs and tests). */
  yields = 0;

  constructor(private readonly o: { signal?: AbortSignal; sliceMs?: number } = {}) {}

  /** True when the loop should `await pause()`: its slice is used up, or the signal aborted. */
  due(): boolean {
    if (this.o.signal?.aborted) return true;
    if (++this.calls % CHECK_EVERY !== 0) return false;
    return performance.now() - this.sliceStart >= (this.o.sliceMs ?? DEFAULT_SLICE_MS);
  }

  /** True once the signal aborted: the loop must stop. */
  get stopped(): boolean {
    return this.o.signal?.aborted ?? false;
  }

  /** Let the event loop run, then start a new slice; false when the signal aborted (stop). */
  async pause(): Promise<boolean> {
    if (this.stopped) return false;
    await nextMacrotask();
    this.yields++;
    this.sliceStart = performance.now();
    return !this.stopped;
  }
}
