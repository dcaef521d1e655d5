import { CpuSlicer } from './cpu-slicer';

/** Up to `ms` of synchronous work in small steps, like a filtering loop, or until `done()`. */
async function busyLoop(
  slicer: CpuSlicer,
  ms: number,
  done: () => boolean = () => false,
): Promise<{ steps: number; stopped: boolean }> {
  const end = performance.now() + ms;
  let steps = 0;
  while (performance.now() < end && !done()) {
    if (slicer.due() && !(await slicer.pause())) return { steps, stopped: true };
    for (let k = 0; k < 200; k++) Math.sqrt(k * steps);
    steps++;
  }
  return { steps, stopped: false };
}

describe('CpuSlicer', () => {
  it('lets timers run during a long loop (the loop yields every slice)', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const slicer = new CpuSlicer({ sliceMs: 10 });
      // Counted in slices, not wall time: a loaded machine may stall the process between them.
      await busyLoop(slicer, 10_000, () => slicer.yields >= 20);
      expect(slicer.yields).toBe(20);
      // Each slice outlasts the 5 ms interval, so each yield lets it fire; without yields: 0.
      expect(ticks).toBeGreaterThanOrEqual(15);
    } finally {
      clearInterval(timer);
    }
  });

  it('stops the loop at its first step after its signal aborts', async () => {
    const signal = AbortSignal.timeout(50);
    const slicer = new CpuSlicer({ signal });
    // Counted in loop steps, not wall time: the abort (a timer) fires during a yield.
    let steps = 0;
    let stepsAtAbort = -1;
    signal.addEventListener('abort', () => {
      stepsAtAbort = steps;
    });
    const res = await busyLoop(slicer, 30_000, () => {
      steps++;
      return false;
    });
    expect(res.stopped).toBe(true);
    expect(slicer.stopped).toBe(true);
    expect(stepsAtAbort).toBeGreaterThan(0);
    expect(steps).toBe(stepsAtAbort); // not one step of work after the abort
  });
});
