/**
 * Chromium engine (Playwright). Every request a page makes goes through the request guard
 * (browser-request-guard: resource types, address policy, redirect bound); a forbidden main document
 * (or redirect hop) becomes TargetForbiddenError.
 * Page options: cookies become browser cookies of the target, `mobile`/`location` are emulated per
 * page (browser-emulation, reset when the slot is released), `actions` run after the load
 * (browser-actions) and `screenshot` is taken after them (browser-screenshot). A render is
 * hard-bounded by the context's deadline/abort: on abort the page is closed, which unblocks any
 * pending Playwright call. Hostile pages are bounded
 * while they load: decoded bytes per response and per page (ByteMeter) and each renderer's RSS
 * (MemoryWatchdog) end the render with TargetTooLargeError; non-HTTP channels are closed by
 * browser-lockdown's flags plus the guarded proxy, which always runs.
 */
import { isIP } from 'node:net';
import {
  ServiceError,
  ServiceUnavailableError,
  TargetTooLargeError,
  TargetUnreachableError,
} from '@wcs/errors';
import {
  type AddressPolicy,
  abortReason,
  bareHost,
  checkUrl,
  decodeBody,
  HTML_TYPES,
  isForbiddenAddress,
  mimeTypeOf,
  parseTargetUrl,
  SNIFF_WINDOW_BYTES,
} from '@wcs/net';
import type { Page, Request, Response } from 'playwright-core';
import {
  actionsDeadline,
  afterNavigation,
  assertActionLimits,
  isActionTimeout,
  runActions,
} from './browser-actions';
import { ByteMeter } from './browser-byte-meter';
import { awaitChallengeClear, DEFAULT_CHALLENGE_WAIT_MS, MainDocuments } from './browser-challenge';
import { deviceScaleFactorOf, PageEmulation } from './browser-emulation';
import {
  asServiceError,
  mapBrowserError,
  proxyFailure,
  renderedTooLarge,
  tooLargeError,
} from './browser-errors';
import { type ChromiumProcess, MemoryWatchdog } from './browser-memory-watchdog';
import { BrowserPool, type BrowserSlot } from './browser-pool';
import { type GuardedProxy, PROXY_ERROR_HEADER, startGuardedProxy } from './browser-proxy';
import { guardRequest, type Lease } from './browser-request-guard';
import { captureScreenshot } from './browser-screenshot';
import { assertSupportedContentType, assertTextBody } from './content-type';
import type {
  ActionOutputs,
  Engine,
  RenderContext,
  RendererLogger,
  RenderRequest,
  RenderResult,
} from './types';

/** After load, wait at most this long for the network to go quiet (SPAs fetch their data late). */
const NETWORK_IDLE_MS = 1_500;
/** Evaluated in the page (this package has no DOM typings). */
const OUTER_HTML_LENGTH = 'document.documentElement ? document.documentElement.outerHTML.length : 0';

export interface BrowserEngineOptions {
  executablePath: string;
  maxPages: number;
  userAgent: string;
  allowPrivateTargets: boolean;
  maxBodyBytes: number;
  maxRedirects: number;
  maxUsesPerPage?: number;
  args?: string[];
  logger?: RendererLogger;
  connectTimeoutMs?: number;
  /** Override which addresses are refused (tests); default isForbiddenAddress unless allowPrivateTargets. */
  isForbidden?: AddressPolicy;
  /** Decoded bytes one render may receive in total (all responses); default 4 × maxBodyBytes. */
  maxPageBytes?: number;
  /** RSS ceiling of one renderer process in MiB (default 1024); V8's heap is bounded at it too. */
  rendererMaxMb?: number;
  /** Tests only: no init script removing WebRTC/WebTransport, to prove the flags hold alone. */
  skipLockdownScript?: boolean;
  /** How often renderer RSS is sampled while renders run (default 100 ms: a page can allocate ~1.5 GB/s). */
  memorySampleMs?: number;
  /** How long an action waits for its selector (default ACTION_SELECTOR_TIMEOUT_MS, 5 s). */
  actionSelectorTimeoutMs?: number;
  /** Close Chromium after this long without renders (default 60 s; 0 = keep it until close()). */
  idleCloseMs?: number;
  /** Longest wait for a challenge to clear itself (`awaitChallenge`); default 15 s. */
  challengeWaitMs?: number;
}

export const DEFAULT_RENDERER_MAX_MB = 1024;
export const PAGE_BYTES_PER_BODY = 4;

export class BrowserEngine implements Engine {
  readonly name = 'browser' as const;
  private readonly pool: BrowserPool;
  private readonly policy: AddressPolicy | undefined;
  private proxy: Promise<GuardedProxy> | undefined;
  /** Per-render state of each busy slot, read by the route handler. */
  private readonly leases = new WeakMap<BrowserSlot, Lease>();
  private readonly meters = new WeakMap<BrowserSlot, ByteMeter>();
  private readonly emulations = new WeakMap<BrowserSlot, PageEmulation>();
  private readonly watchdog: MemoryWatchdog;
  private rendering = 0;

  constructor(private readonly opts: BrowserEngineOptions) {
    this.policy = opts.isForbidden ?? (opts.allowPrivateTargets ? undefined : isForbiddenAddress);
    const rendererMaxMb = opts.rendererMaxMb ?? DEFAULT_RENDERER_MAX_MB;
    this.pool = new BrowserPool({
      executablePath: opts.executablePath,
      maxPages: opts.maxPages,
      userAgent: opts.userAgent,
      maxUsesPerPage: opts.maxUsesPerPage,
      args: opts.args,
      idleCloseMs: opts.idleCloseMs,
      rendererMaxMb,
      skipLockdownScript: opts.skipLockdownScript,
      logger: opts.logger,
      proxyServer: async () => (await this.startProxy()).server,
      setup: async (slot) => {
        await slot.context.route('**/*', (route, request) =>
          guardRequest(slot, this.leases.get(slot) ?? { blocked: 0, loadImages: false }, route, request, {
            policy: this.policy,
            maxRedirects: opts.maxRedirects,
            logger: opts.logger,
          }),
        );
        this.meters.set(slot, await ByteMeter.attach(slot.page));
        this.emulations.set(slot, await PageEmulation.attach(slot.page, opts.userAgent, opts.logger));
      },
      reset: async (slot) => {
        // Desktop again before the next render (a failure here closes the slot instead).
        await this.emulations.get(slot)?.reset();
        // The previous page's heap would otherwise stay resident in the pooled renderer.
        await this.meters.get(slot)?.collectGarbage();
      },
    });
    this.watchdog = new MemoryWatchdog({
      ceilingBytes: rendererMaxMb * 2 ** 20,
      intervalMs: opts.memorySampleMs ?? 100,
      session: () => this.pool.browserSession(),
      logger: opts.logger,
    });
  }

  /** Chromium's processes and their RSS (and PSS) now, plus the watchdog's peak and kill count. */
  async memory(): Promise<{ processes: ChromiumProcess[]; peakRendererBytes: number; kills: number }> {
    return {
      processes: await this.watchdog.processes(true),
      peakRendererBytes: this.watchdog.peakRendererBytes,
      kills: this.watchdog.kills,
    };
  }

  resetMemoryPeak(): void {
    this.watchdog.resetPeak();
  }

  get poolSize(): { idle: number; busy: number } {
    return this.pool.size;
  }

  async render(req: RenderRequest, ctx: RenderContext): Promise<RenderResult> {
    const target = parseTargetUrl(req.url).href;
    if (req.actions) assertActionLimits(req.actions);
    // An address the policy refuses is refused before a page (or, after an idle close, a browser)
    // starts for it; the request guard would refuse it inside Chromium after that start. Names
    // are left to the guard, which resolves them on every request.
    if (this.policy && isIP(bareHost(new URL(target).hostname))) {
      await checkUrl(target, this.policy).catch((err: unknown) => {
        throw asServiceError(err, target);
      });
    }
    const slot = await this.pool.acquire(ctx.signal);
    try {
      this.pool.useUpstream(slot, req.request?.proxy);
    } catch (err) {
      void this.pool.release(slot, false).catch(() => undefined);
      throw err;
    }
    const lease: Lease = {
      blocked: 0,
      loadImages: req.screenshot !== undefined || (req.actions ?? []).some((a) => a.type === 'screenshot'),
    };
    const leasedAt = Date.now();
    this.leases.set(slot, lease);
    let broken = true;
    // Hard stop: closing the page rejects whatever Playwright call is pending.
    const stop = () => void slot.page.close().catch(() => undefined);
    const onAbort = stop;
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const maxPageBytes = Math.max(
      this.opts.maxPageBytes ?? PAGE_BYTES_PER_BODY * this.opts.maxBodyBytes,
      this.opts.maxBodyBytes,
    );
    this.meters.get(slot)?.arm({ maxResponseBytes: this.opts.maxBodyBytes, maxPageBytes }, (hit) => {
      lease.tooLarge = tooLargeError(hit);
      this.opts.logger?.warn({ url: target, ...hit }, 'browser byte cap passed: page stopped');
      stop();
    });
    this.meters.get(slot)?.head.arm((head, contentType) => {
      try {
        assertTextBody(head, contentType);
      } catch (err) {
        lease.unsupported = asServiceError(err, target);
        stop();
      }
    });
    if (this.rendering++ === 0) this.watchdog.start();
    try {
      const result = await this.visit(slot, lease, target, req, ctx);
      if (lease.tooLarge) throw lease.tooLarge;
      broken = false;
      return result;
    } catch (err) {
      if (lease.tooLarge) throw lease.tooLarge;
      if (lease.unsupported) throw lease.unsupported;
      if (slot.crashed || /Target crashed|page crashed/i.test(String(err)))
        throw this.crashError(leasedAt, target);
      // An action's own TimeoutError names the action: it stays when the deadline fired meanwhile.
      if (ctx.signal.aborted && !isActionTimeout(err, ctx.signal)) throw abortReason(ctx.signal);
      if (lease.refused) throw lease.refused;
      // Anything but a service-level refusal gets a fresh page next time.
      if (err instanceof ServiceError) {
        // An HTTP-level refusal leaves the page healthy; a failed action does not.
        broken = lease.actionFailed === true;
        throw err;
      }
      // Chromium only says "tunnel failed" for proxied HTTPS; the proxy knows why.
      if (/ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY_CONNECTION_FAILED/.test(String(err))) {
        const why = await proxyFailure(this.proxy, undefined, target, ctx.started);
        if (why) throw why;
      }
      throw mapBrowserError(err, target);
    } finally {
      if (--this.rendering === 0) this.watchdog.stop();
      this.meters.get(slot)?.disarm();
      ctx.signal.removeEventListener('abort', onAbort);
      this.leases.delete(slot);
      // Not awaited: resetting the page (about:blank, cookies) should not delay the result.
      void this.pool.release(slot, broken).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.watchdog.stop();
    await this.pool.close();
    const proxy = this.proxy;
    this.proxy = undefined;
    await proxy?.then((p) => p.close()).catch(() => undefined);
  }

  /** A renderer died mid-render: the watchdog's kill, or V8's own heap limit. */
  private crashError(since: number, url: string): ServiceError {
    const killed = this.watchdog.killedSince(since);
    const ceilingMb = this.opts.rendererMaxMb ?? DEFAULT_RENDERER_MAX_MB;
    return new TargetTooLargeError(
      killed
        ? `Rendering ${url} passed the renderer memory ceiling of ${ceilingMb} MB`
        : `The renderer of ${url} crashed (out of memory)`,
      { details: { rendererMaxMb: ceilingMb, reason: killed ? 'memory-ceiling' : 'renderer-crashed' } },
    );
  }

  /**
   * Always on, also when private targets are allowed (then it refuses nothing): Chromium refuses
   * WebTransport through a proxy, which is what closes that UDP channel.
   */
  private startProxy(): Promise<GuardedProxy> {
    this.proxy ??= startGuardedProxy({
      isForbidden: this.policy ?? (() => false),
      connectTimeoutMs: this.opts.connectTimeoutMs ?? 5_000,
      logger: this.opts.logger,
    });
    return this.proxy;
  }

  private async visit(
    slot: BrowserSlot,
    lease: Lease,
    url: string,
    req: RenderRequest,
    ctx: RenderContext,
  ): Promise<RenderResult> {
    const { page } = slot;
    const emulation = this.emulations.get(slot);
    if (!emulation) throw new ServiceUnavailableError('Browser page is not set up');
    await emulation.prepare(url, req);
    // The main frame's latest document: an action may navigate, and the guarded proxy answers a
    // refused or failed connection with its own error page, which must not pass as the content.
    const documents = new MainDocuments();
    const onResponse = (r: Response) => {
      if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) documents.seen(r);
    };
    const onLoad = () => documents.loaded();
    page.on('response', onResponse);
    page.on('load', onLoad);
    try {
      return await this.load(slot, lease, url, req, ctx, emulation, documents);
    } finally {
      page.off('response', onResponse);
      page.off('load', onLoad);
    }
  }

  private async load(
    slot: BrowserSlot,
    lease: Lease,
    url: string,
    req: RenderRequest,
    ctx: RenderContext,
    emulation: PageEmulation,
    documents: MainDocuments,
  ): Promise<RenderResult> {
    const { page } = slot;
    const screenshot = (fullPage: boolean) =>
      captureScreenshot(emulation.session, { fullPage, deviceScaleFactor: deviceScaleFactorOf(req) });
    const first = await page.goto(url, { waitUntil: 'load', timeout: remaining(ctx) });
    if (lease.refused) throw lease.refused;
    if (!first) throw new TargetUnreachableError(`No response for ${url}`);
    // Only on the scraper's escalation path: an ordinary render never waits here.
    const challenge = req.awaitChallenge
      ? await awaitChallengeClear(page, documents, first, req.awaitChallenge, {
          deadline: ctx.deadline,
          maxWaitMs: this.opts.challengeWaitMs ?? DEFAULT_CHALLENGE_WAIT_MS,
        })
      : undefined;
    if (lease.refused) throw lease.refused;
    // The document the challenge gave way to is the page (its status, headers, redirects).
    const response = challenge?.response ?? first;
    const proxyError = await response.headerValue(PROXY_ERROR_HEADER);
    if (proxyError)
      throw (
        (await proxyFailure(this.proxy, proxyError, response.url(), ctx.started)) ??
        new TargetUnreachableError(url)
      );

    const rawType = (await response.headerValue('content-type')) ?? undefined;
    const mime = mimeTypeOf(rawType) || 'text/html';
    assertSupportedContentType(mime);
    // The main document's bytes (bounded by the byte cap) decide too: binary served as HTML is 415.
    const raw = await response.body().catch((err: unknown) => {
      if (lease.tooLarge) throw lease.tooLarge;
      if (!HTML_TYPES.has(mime)) throw err;
      return undefined; // e.g. evicted from the devtools buffer: the header alone decides
    });
    if (raw) assertTextBody(raw.subarray(0, SNIFF_WINDOW_BYTES), rawType);

    const isHtml = HTML_TYPES.has(mime);
    if (isHtml) {
      if (req.waitForMs && req.waitForMs > 0)
        await page.waitForTimeout(Math.min(req.waitForMs, remaining(ctx)));
      await networkIdle(page, ctx);
    }
    // An error page is the page's error (the scraper answers TARGET_HTTP_ERROR): no actions or picture.
    const errorPage = response.status() >= 400;
    let actions: ActionOutputs | undefined;
    if (req.actions && req.actions.length > 0 && !errorPage) {
      actions = await runActions(req.actions, {
        page,
        deadline: actionsDeadline(ctx),
        screenshot,
        selectorTimeoutMs: this.opts.actionSelectorTimeoutMs,
        terminateScript: async () => void (await emulation.session.send('Runtime.terminateExecution')),
        logger: this.opts.logger,
      }).catch((err: unknown) => {
        lease.actionFailed = true;
        throw err;
      });
      // A click may have navigated (to a refused host, too) or started loading the content.
      if (lease.refused) throw lease.refused;
      await networkIdle(page, ctx);
      const navigated = documents.latest;
      const failed =
        navigated && navigated !== response ? await navigated.headerValue(PROXY_ERROR_HEADER) : null;
      if (navigated && failed) {
        throw (
          (await proxyFailure(this.proxy, failed, navigated.url(), ctx.started)) ??
          new TargetUnreachableError(navigated.url())
        );
      }
    }
    if (lease.tooLarge) throw lease.tooLarge;
    const started = Date.now();
    const picture =
      req.screenshot && !errorPage ? await screenshot(req.screenshot === 'fullPage') : undefined;
    if (picture) this.opts.logger?.debug({ url, ms: Date.now() - started }, 'browser screenshot');
    // Measured in the renderer first, so a DOM built huge by script is never shipped to Node.
    const htmlChars = isHtml
      ? Number(await afterNavigation(page, () => page.evaluate(OUTER_HTML_LENGTH)))
      : 0;
    if (htmlChars > this.opts.maxBodyBytes) throw renderedTooLarge(this.opts.maxBodyBytes);
    const body =
      isHtml || !raw ? await afterNavigation(page, () => page.content()) : decodeBody(raw, rawType).text;
    if (Buffer.byteLength(body) > this.opts.maxBodyBytes) throw renderedTooLarge(this.opts.maxBodyBytes);
    this.opts.logger?.debug({ url, blocked: lease.blocked }, 'browser render done');
    return {
      ...(picture ? { screenshot: picture } : {}),
      ...(actions ? { actions } : {}),
      ...(challenge?.challenged
        ? { challenge: { waitedMs: challenge.waitedMs, cleared: challenge.cleared } }
        : {}),
      requestedUrl: req.url,
      finalUrl: page.url(),
      statusCode: response.status(),
      contentType: mime,
      body,
      engine: 'browser',
      headers: await response.allHeaders(),
      redirects: redirectTargets(response),
      elapsedMs: Date.now() - ctx.started,
    };
  }
}

function remaining(ctx: RenderContext): number {
  return Math.max(1, ctx.deadline - Date.now());
}

/** Bounded: pages that poll forever never go idle, so this never fails the render. */
async function networkIdle(page: Page, ctx: RenderContext): Promise<void> {
  const timeout = Math.min(NETWORK_IDLE_MS, remaining(ctx));
  await page.waitForLoadState('networkidle', { timeout }).catch(() => undefined);
}

/** URLs the navigation was redirected to, in order (the last equals the final URL). */
function redirectTargets(response: Response): string[] {
  const chain: string[] = [];
  for (let r: Request | null = response.request(); r; r = r.redirectedFrom()) chain.unshift(r.url());
  return chain.slice(1);
}
