/**
 * One lazily launched Chromium with up to `maxPages` pooled pages. Each slot owns its own browser
 * context (cookie/storage isolation between slots) and is reused across renders, then recycled
 * after `maxUsesPerPage` renders or when a render breaks it. Waiters queue when all slots are busy.
 * After `idleCloseMs` without activity (no slot busy, created, released or waited for) the browser
 * is closed and forgotten: an idle worker runs no Chromium, the next acquire launches a fresh one.
 */
import { ServiceUnavailableError } from '@wcs/errors';
import { abortReason } from '@wcs/net';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { IdleClose } from './browser-idle-close';
import { hardeningArgs, LOCKDOWN_SCRIPT } from './browser-lockdown';
import { type SlotUpstreams, sharedSlotUpstreams } from './browser-proxy';
import type { RendererLogger } from './types';

/**
 * playwright-core is required with the first launch, not at start: loaded, it holds ~45 MB of every
 * worker process that imports the renderer (`pnpm bench:footprint`), most of which never render.
 */
function playwrightChromium(): typeof import('playwright-core').chromium {
  return (require('playwright-core') as typeof import('playwright-core')).chromium;
}

/** Flags measured to work with Debian's chromium in containers (see docs/toolchain notes). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** How long an unused browser stays up (BROWSER_IDLE_CLOSE_MS's default). */
export const DEFAULT_IDLE_CLOSE_MS = 60_000;

export interface BrowserPoolOptions {
  executablePath: string;
  maxPages: number;
  userAgent: string;
  /** Recycle a page (and its context) after this many renders, to bound memory growth. */
  maxUsesPerPage?: number;
  /** Extra chromium flags appended to CHROMIUM_ARGS. */
  args?: string[];
  /** Close the browser after this long without activity (default DEFAULT_IDLE_CLOSE_MS; 0 = never). */
  idleCloseMs?: number;
  /** Memory ceiling of one renderer in MiB; V8's heap is bounded at it too (see browser-lockdown). */
  rendererMaxMb: number;
  /** Tests only: leave out the init script, to prove the flags hold on their own. */
  skipLockdownScript?: boolean;
  /** Resolves the proxy every browser connection must use (undefined = direct). */
  proxyServer?: () => Promise<string | undefined>;
  /**
   * Credentials and upstreams of the slots, shared with that proxy (startGuardedProxy's
   * `upstreams`); default the process-wide sharedSlotUpstreams, which the proxy uses by default.
   */
  upstreams?: SlotUpstreams;
  logger?: RendererLogger;
  /** Called once per new slot, e.g. to install request routing. */
  setup: (slot: BrowserSlot) => Promise<void>;
  /** Called when a slot is reset for reuse (page at about:blank), e.g. to collect its garbage. */
  reset?: (slot: BrowserSlot) => Promise<void>;
}

export interface BrowserSlot {
  readonly context: BrowserContext;
  readonly page: Page;
  uses: number;
  /** Its renderer died (memory kill, V8 OOM): never reused. */
  crashed: boolean;
  /**
   * Origins whose documents (main frame or iframes) loaded since the last release: their storage
   * (localStorage, sessionStorage, IndexedDB, caches) is wiped before the slot serves another caller.
   */
  readonly origins: Set<string>;
}

/** Everything an origin can keep in a browser (CDP Storage.clearDataForOrigin). */
const ALL_STORAGE = 'all';

interface Waiter {
  resolve(slot: BrowserSlot): void;
  reject(err: Error): void;
}

export class BrowserPool {
  private browser: Promise<Browser> | undefined;
  private cdp: { browser: Browser; session: Promise<CDPSession> } | undefined;
  private readonly idle: BrowserSlot[] = [];
  private readonly busy = new Set<BrowserSlot>();
  private creating = 0;
  private releasing = 0;
  /** Acquires not yet answered (waiters included): activity that holds off the idle close. */
  private acquiring = 0;
  private readonly waiters: Waiter[] = [];
  private closed = false;
  private readonly idleClose: IdleClose;
  /** The browser each slot lives in: a slot of a browser no longer current is never handed out. */
  private readonly slotBrowsers = new WeakMap<BrowserSlot, Promise<Browser>>();
  /** Each slot's proxy username (its context authenticates to the guarded proxy with it). */
  private readonly proxyUsers = new WeakMap<BrowserSlot, string>();
  private readonly liveProxyUsers = new Set<string>();
  private readonly upstreams: SlotUpstreams;

  constructor(private readonly opts: BrowserPoolOptions) {
    this.upstreams = opts.upstreams ?? sharedSlotUpstreams;
    this.idleClose = new IdleClose({
      ms: opts.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS,
      idle: () =>
        !this.closed &&
        this.acquiring + this.busy.size + this.creating + this.releasing + this.waiters.length === 0,
      takeBrowser: () => this.takeBrowser(),
      logger: opts.logger,
    });
  }

  get size(): { idle: number; busy: number } {
    return { idle: this.idle.length, busy: this.busy.size };
  }

  async acquire(signal: AbortSignal): Promise<BrowserSlot> {
    if (this.closed) throw new ServiceUnavailableError('Renderer is closed');
    if (signal.aborted) throw abortReason(signal);
    this.acquiring++;
    this.idleClose.cancel();
    try {
      return await this.take(signal);
    } finally {
      this.acquiring--;
      this.idleClose.arm();
    }
  }

  private async take(signal: AbortSignal): Promise<BrowserSlot> {
    let ready = this.idle.pop();
    while (ready?.crashed) {
      await this.destroySlot(ready);
      ready = this.idle.pop();
    }
    if (ready) {
      this.busy.add(ready);
      return ready;
    }
    // Slots being released still count: they come back (or are replaced) in a moment.
    if (this.busy.size + this.creating + this.releasing < this.opts.maxPages) {
      this.creating++;
      try {
        const slot = await this.createSlot();
        this.busy.add(slot);
        return slot;
      } finally {
        this.creating--;
      }
    }
    return new Promise<BrowserSlot>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(abortReason(signal));
      };
      const waiter: Waiter = {
        resolve: (s) => {
          signal.removeEventListener('abort', onAbort);
          resolve(s);
        },
        reject: (e) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /**
   * Route the slot's connections through this upstream proxy until the next call (undefined =
   * direct). Called by the engine right after `acquire`, before the slot makes any request.
   */
  useUpstream(slot: BrowserSlot, proxyUrl: string | undefined): void {
    const user = this.proxyUsers.get(slot);
    if (!user) {
      if (proxyUrl) throw new ServiceUnavailableError('Upstream proxies need the guarded browser proxy');
      return;
    }
    this.upstreams.use(user, proxyUrl);
  }

  /** Return a slot; `broken` (or too many uses) closes it and lets a waiter get a fresh one. */
  async release(slot: BrowserSlot, broken: boolean): Promise<void> {
    this.busy.delete(slot);
    this.releasing++;
    slot.uses++;
    let reusable =
      !broken &&
      !slot.crashed &&
      !this.closed &&
      this.isCurrent(slot) &&
      !slot.page.isClosed() &&
      slot.uses < (this.opts.maxUsesPerPage ?? 50);
    if (reusable) {
      try {
        // Stop the previous page's scripts/timers and drop its cookies before the next render.
        await slot.page.goto('about:blank', { timeout: 5_000 });
        await this.clearStorage(slot);
        await slot.context.clearCookies();
        await slot.page.setExtraHTTPHeaders({});
        await this.opts.reset?.(slot);
      } catch {
        reusable = false;
      }
    }
    // The reset may have outlived its browser (crash): then the slot is dropped after all.
    if (reusable && !this.isCurrent(slot)) reusable = false;
    if (!reusable) await this.destroySlot(slot);
    this.releasing--;
    this.handOff(reusable ? slot : undefined);
    this.idleClose.arm();
  }

  /** One caller's site data must never reach the next caller's render of the same site. */
  private async clearStorage(slot: BrowserSlot): Promise<void> {
    if (slot.origins.size === 0) return;
    const cdp = await slot.context.newCDPSession(slot.page);
    try {
      for (const origin of slot.origins)
        await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: ALL_STORAGE });
      slot.origins.clear();
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.idleClose.cancel();
    for (const w of this.waiters.splice(0)) w.reject(new ServiceUnavailableError('Renderer is closed'));
    const browser = this.browser;
    this.browser = undefined;
    this.cdp = undefined;
    this.idle.length = 0;
    this.busy.clear();
    for (const user of this.liveProxyUsers) this.upstreams.forget(user);
    this.liveProxyUsers.clear();
    if (browser) {
      // close() kills the chromium process tree; a launch failure has nothing to close.
      await browser.then((b) => b.close()).catch(() => undefined);
    }
    await this.idleClose.settled();
  }

  /**
   * The idle close takes the browser: forgotten at once (with its idle slots and CDP session), so
   * an acquire from now on launches a new one, once this one has exited.
   */
  private takeBrowser(): Promise<Browser> | undefined {
    const launched = this.browser;
    this.browser = undefined;
    this.cdp = undefined;
    for (const slot of this.idle.splice(0)) this.forgetProxyUser(slot);
    return launched;
  }

  /** The slot lives in the current browser (not one closed for idleness, crashed or replaced). */
  private isCurrent(slot: BrowserSlot): boolean {
    const browser = this.slotBrowsers.get(slot);
    return browser !== undefined && browser === this.browser;
  }

  /** The browser-level CDP session (process info), undefined while no browser runs. */
  async browserSession(): Promise<CDPSession | undefined> {
    const launched = this.browser;
    if (!launched) return undefined;
    const browser = await launched.catch(() => undefined);
    if (!browser?.isConnected()) return undefined;
    if (this.cdp?.browser !== browser) this.cdp = { browser, session: browser.newBrowserCDPSession() };
    return this.cdp.session.catch(() => undefined);
  }

  private handOff(slot: BrowserSlot | undefined): void {
    const waiter = this.waiters.shift();
    if (!waiter) {
      if (slot) this.idle.push(slot);
      return;
    }
    if (slot) {
      this.busy.add(slot);
      waiter.resolve(slot);
      return;
    }
    // The slot was destroyed: build a new one for the waiter.
    this.creating++;
    this.createSlot()
      .then((s) => {
        this.busy.add(s);
        waiter.resolve(s);
      }, waiter.reject)
      .finally(() => {
        this.creating--;
        this.idleClose.arm();
      });
  }

  private launch(): Promise<Browser> {
    if (!this.browser) {
      const started = Date.now();
      // After an idle close, the old process tree exits before the new one starts.
      const p = this.idleClose
        .settled()
        .then(() => {
          if (this.closed) throw new ServiceUnavailableError('Renderer is closed');
          return this.opts.proxyServer?.();
        })
        .then((server) =>
          playwrightChromium().launch({
            executablePath: this.opts.executablePath,
            args: [...CHROMIUM_ARGS, ...hardeningArgs(this.opts.rendererMaxMb), ...(this.opts.args ?? [])],
            headless: true,
            // Playwright also forces loopback through the proxy (<-loopback>).
            ...(server ? { proxy: { server } } : {}),
          }),
        )
        .then((b) => {
          this.opts.logger?.debug({ ms: Date.now() - started }, 'browser launched');
          b.on('disconnected', () => {
            // Crash or kill: forget it (and its slots) so the next acquire relaunches.
            if (this.browser === p) {
              this.browser = undefined;
              this.cdp = undefined;
            }
            // Only its own slots: a relaunched browser may already have idle ones.
            for (const slot of this.idle.filter((s) => this.slotBrowsers.get(s) === p)) {
              this.idle.splice(this.idle.indexOf(slot), 1);
              this.forgetProxyUser(slot);
            }
          });
          return b;
        });
      p.catch(() => {
        if (this.browser === p) this.browser = undefined;
      });
      this.browser = p;
    }
    return this.browser;
  }

  /** A slot of the current browser: one whose browser went away while it was built is rebuilt once. */
  private async createSlot(): Promise<BrowserSlot> {
    for (let attempt = 1; ; attempt++) {
      const slot = await this.buildSlot();
      if (this.isCurrent(slot)) return slot;
      await this.destroySlot(slot);
      if (this.closed || attempt === 2)
        throw new ServiceUnavailableError('Browser closed while preparing a page');
    }
  }

  private async buildSlot(): Promise<BrowserSlot> {
    let browser: Browser;
    const launched = this.launch();
    try {
      browser = await launched;
    } catch (err) {
      this.opts.logger?.warn({ err: String(err) }, 'browser launch failed');
      throw new ServiceUnavailableError('Browser could not be launched', { cause: err });
    }
    if (this.closed) throw new ServiceUnavailableError('Renderer is closed');
    // Its own credentials at the guarded proxy: how the proxy knows the slot (and its upstream).
    const server = await this.opts.proxyServer?.();
    const credentials = server ? this.upstreams.register() : undefined;
    let context: BrowserContext;
    try {
      context = await browser.newContext({
        userAgent: this.opts.userAgent,
        serviceWorkers: 'block', // service workers would bypass request routing
        acceptDownloads: false,
        javaScriptEnabled: true,
        ...(server && credentials ? { proxy: { server, ...credentials } } : {}),
      });
    } catch (err) {
      if (credentials) this.upstreams.forget(credentials.username);
      throw err;
    }
    try {
      if (!this.opts.skipLockdownScript) await context.addInitScript(LOCKDOWN_SCRIPT);
      const page = await context.newPage();
      const slot: BrowserSlot = { context, page, uses: 0, crashed: false, origins: new Set() };
      this.slotBrowsers.set(slot, launched);
      if (credentials) {
        this.proxyUsers.set(slot, credentials.username);
        this.liveProxyUsers.add(credentials.username);
      }
      page.on('crash', () => {
        slot.crashed = true;
      });
      // Popups would be pages nobody meters or waits for: closed at once.
      context.on('page', (p) => {
        if (p !== page) void p.close().catch(() => undefined);
      });
      await this.opts.setup(slot);
      return slot;
    } catch (err) {
      await context.close().catch(() => undefined);
      if (credentials) {
        this.upstreams.forget(credentials.username);
        this.liveProxyUsers.delete(credentials.username);
      }
      throw err;
    }
  }

  private async destroySlot(slot: BrowserSlot): Promise<void> {
    await slot.context.close().catch(() => undefined);
    this.forgetProxyUser(slot);
  }

  private forgetProxyUser(slot: BrowserSlot): void {
    const user = this.proxyUsers.get(slot);
    if (user) {
      this.upstreams.forget(user);
      this.liveProxyUsers.delete(user);
    }
  }
}
