/**
 * Run `task` every `intervalMs` (first run after `firstDelayMs`), never two at once; `stop()`
 * waits for a run in progress so shutdown never cuts a pass in half. Used by the reconcilers.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly task: () => Promise<unknown>,
    private readonly opts: { intervalMs: number; firstDelayMs?: number; onError: (err: unknown) => void },
  ) {}

  start(): void {
    const tick = () => {
      this.running = this.task()
        .then(() => undefined)
        .catch(this.opts.onError)
        .finally(() => {
          this.running = null;
          if (this.timer) this.timer = setTimeout(tick, this.opts.intervalMs);
        });
    };
    this.timer = setTimeout(tick, this.opts.firstDelayMs ?? Math.min(1_000, this.opts.intervalMs));
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
