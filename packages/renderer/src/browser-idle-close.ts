/**
 * Closing an unused Chromium (BROWSER_IDLE_CLOSE_MS): BrowserPool arms this when its last activity
 * ends and cancels it on every acquire. When the countdown passes and the pool is still idle, the
 * pool hands over its browser (forgetting it at once, so a later acquire launches a new one) and
 * this closes it, which ends the whole Chromium process tree. The timer is unref'd, so a pending
 * close never keeps the process alive; `ms` 0 disables it (the browser lives until the pool closes).
 */
import type { Browser } from 'playwright-core';
import type { RendererLogger } from './types';

export interface IdleCloseOptions {
  ms: number;
  /** True while nothing is busy, being created or released, or waited for. */
  idle: () => boolean;
  /** Detach the current browser from the pool and return it (undefined when none runs). */
  takeBrowser: () => Promise<Browser> | undefined;
  logger?: RendererLogger;
}

export class IdleClose {
  private timer: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly opts: IdleCloseOptions) {}

  /** Resolves once an idle close under way is over (at once when none is). */
  settled(): Promise<void> {
    return this.closing ?? Promise.resolve();
  }

  /** (Re)starts the countdown, when enabled and the pool is idle now. */
  arm(): void {
    if (this.opts.ms <= 0 || !this.opts.idle()) return;
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, this.opts.ms);
    this.timer.unref();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fire(): void {
    // Checked again: an acquire cancels the timer, but be sure nothing started meanwhile.
    if (!this.opts.idle()) return;
    const browser = this.opts.takeBrowser();
    if (!browser) return;
    const done = browser
      .then((b) => b.close())
      .then(
        () => this.opts.logger?.debug({ idleCloseMs: this.opts.ms }, 'browser closed after idle'),
        () => undefined, // a launch that failed has nothing to close
      );
    this.closing = done;
    void done.then(() => {
      if (this.closing === done) this.closing = undefined;
    });
  }
}
