/**
 * The public entry point: picks an engine per request (auto = fetch first, browser only when the
 * HTML needs JavaScript or the request asks for it), owns the total time budget and abort wiring.
 */
import {
  ServiceUnavailableError,
  TargetForbiddenError,
  TargetTooLargeError,
  TimeoutError,
  ValidationError,
} from '@wcs/errors';
import { abortReason, HTML_TYPES } from '@wcs/net';
import { BrowserEngine } from './browser-engine';
import { FetchEngine } from './fetch-engine';
import { needsJavaScript } from './js-detector';
import type { Engine, RenderContext, Renderer, RendererOptions, RenderRequest, RenderResult } from './types';

export function createRenderer(opts: RendererOptions): Renderer {
  const fetchEngine = new FetchEngine(opts);
  let browserEngine: BrowserEngine | undefined; // created (and chromium launched) on first need
  let closed = false;
  const inFlight = new Set<AbortController>();

  const browser = (): BrowserEngine => {
    browserEngine ??= new BrowserEngine({
      executablePath: opts.browser.executablePath,
      maxPages: opts.browser.maxPages,
      userAgent: opts.userAgent,
      allowPrivateTargets: opts.allowPrivateTargets,
      maxBodyBytes: opts.maxBodyBytes,
      maxRedirects: opts.maxRedirects,
      connectTimeoutMs: opts.connectTimeoutMs,
      maxUsesPerPage: opts.browser.maxUsesPerPage,
      maxPageBytes: opts.browser.maxPageBytes,
      rendererMaxMb: opts.browser.rendererMaxMb,
      args: opts.browser.args,
      logger: opts.logger,
    });
    return browserEngine;
  };

  const run = async (engine: Engine, req: RenderRequest, ctx: RenderContext): Promise<RenderResult> => {
    const result = await engine.render(req, ctx);
    return { ...result, elapsedMs: Date.now() - ctx.started };
  };

  // Rotated per request: each render takes the next upstream proxy (none configured = direct).
  const proxies = opts.proxies ?? [];
  let nextProxy = 0;
  const pickProxy = (req: RenderRequest): RenderRequest => {
    if (req.proxy === 'none' || proxies.length === 0) return req;
    const proxy = proxies[nextProxy++ % proxies.length];
    return { ...req, request: { ...req.request, proxy } };
  };

  const renderWithin = async (asked: RenderRequest, ctx: RenderContext): Promise<RenderResult> => {
    const req = pickProxy(asked);
    const mode = req.engine ?? 'auto';
    const needsBrowser = (req.actions?.length ?? 0) > 0 || req.screenshot !== undefined;
    if (needsBrowser && !opts.browser.enabled)
      throw new ServiceUnavailableError(
        'Browser rendering is disabled on this server: actions and screenshots need it',
      );
    if (needsBrowser && mode === 'fetch')
      throw new ValidationError('Actions and screenshots need the browser: engine "fetch" cannot run them');
    const wantsBrowser = mode === 'browser' || needsBrowser || (mode === 'auto' && (req.waitForMs ?? 0) > 0);
    if (wantsBrowser) {
      if (opts.browser.enabled) return run(browser(), req, ctx);
      if (mode === 'browser')
        throw new ServiceUnavailableError('Browser rendering is disabled on this server');
      opts.logger?.warn({ url: req.url }, 'waitForMs ignored: browser disabled, using fetch');
    }
    const fetched = await run(fetchEngine, req, ctx);
    if (mode !== 'auto' || !opts.browser.enabled) return fetched;
    if (!HTML_TYPES.has(fetched.contentType) || !needsJavaScript(fetched.body)) return fetched;

    opts.logger?.debug({ url: req.url }, 'page needs JavaScript; rendering with the browser');
    try {
      // Render the final URL: the redirect chain has already been checked and followed once.
      return { ...(await run(browser(), { ...req, url: fetched.finalUrl }, ctx)), requestedUrl: req.url };
    } catch (err) {
      // Caller aborts, SSRF refusals and caps are final (a shell that streams without end must not
      // answer 200 with the empty shell); otherwise the fetched HTML beats no result.
      if (ctx.signal.aborted && !(abortReason(ctx.signal) instanceof TimeoutError))
        throw abortReason(ctx.signal);
      if (err instanceof TargetForbiddenError || err instanceof TargetTooLargeError) throw err;
      opts.logger?.warn({ url: req.url, err: String(err) }, 'browser render failed; returning fetched HTML');
      return fetched;
    }
  };

  return {
    async render(req: RenderRequest): Promise<RenderResult> {
      if (closed) throw new ServiceUnavailableError('Renderer is closed');
      const started = Date.now();
      const timeoutMs = req.timeoutMs ?? opts.fetchTimeoutMs;
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new TimeoutError(`Rendering ${req.url} took longer than ${timeoutMs} ms`)),
        timeoutMs,
      );
      const onCallerAbort = () => controller.abort(req.signal?.reason);
      if (req.signal?.aborted) onCallerAbort();
      else req.signal?.addEventListener('abort', onCallerAbort, { once: true });
      inFlight.add(controller);
      try {
        return await renderWithin(req, { started, deadline: started + timeoutMs, signal: controller.signal });
      } catch (err) {
        if (controller.signal.aborted) throw abortReason(controller.signal);
        throw err;
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onCallerAbort);
        inFlight.delete(controller);
      }
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const c of inFlight) c.abort(new ServiceUnavailableError('Renderer is closing'));
      await Promise.all([fetchEngine.close(), browserEngine?.close()]);
    },
  };
}
