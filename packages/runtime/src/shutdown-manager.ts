/**
 * Closes a process's resources in reverse order of registration on SIGTERM/SIGINT (workers
 * before queues before the browser before the database), once, with a deadline so a stuck
 * close can't keep a pod alive forever.
 */
export interface ShutdownLogger {
  info(o: object, m?: string): void;
  error(o: object, m?: string): void;
}

export const DEFAULT_SHUTDOWN_DEADLINE_MS = 20_000;

export class ShutdownManager {
  private readonly steps: Array<{ name: string; close: () => Promise<unknown> | unknown }> = [];
  private closing: Promise<void> | null = null;

  constructor(
    private readonly logger: ShutdownLogger,
    private readonly deadlineMs = DEFAULT_SHUTDOWN_DEADLINE_MS,
  ) {}

  add(name: string, close: () => Promise<unknown> | unknown): void {
    this.steps.push({ name, close });
  }

  /** Run every close step, newest first. Safe to call more than once. */
  shutdown(reason: string): Promise<void> {
    if (!this.closing) {
      this.closing = (async () => {
        this.logger.info({ reason }, 'shutting down');
        for (const step of [...this.steps].reverse()) {
          try {
            await step.close();
          } catch (err) {
            this.logger.error({ err, step: step.name }, 'close step failed');
          }
        }
      })();
    }
    return this.closing;
  }

  /** Install signal handlers that shut down and exit; a second signal exits at once. */
  installSignalHandlers(): void {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) process.exit(1);
      const timer = setTimeout(() => {
        this.logger.error({ deadlineMs: this.deadlineMs }, 'shutdown deadline passed; exiting');
        process.exit(1);
      }, this.deadlineMs);
      timer.unref();
      void this.shutdown(signal).then(() => process.exit(0));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
}
