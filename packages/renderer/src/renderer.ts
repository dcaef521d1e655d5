/**
 * The public entry point: picks an engine per request (auto = fetch first, browser only when the
 * HTML needs JavaScript or the request asks for it), owns the total time budget and abort wiring.
 */

import {
  ActionFailedError,
  ServiceUnavailableError,
  TargetForbiddenError,
  TargetTooLargeError,
  TimeoutError,
  UnsupportedContentTypeError,
  ValidationError,
} from '@wcs/errors';
import { abortReason, checkUrl, HTML_TYPES, isForbiddenAddress } from '@wcs/net';
import { isActionTimeout } from './browser-actions';
import { BrowserEngine } from './browser-engine';
import { FetchEngine } from './fetch-engine';
import { needsJavaScript } from './js-detector';
import type { Engine, RenderContext, Renderer, RendererOptions, RenderRequest, RenderResult } from './types';

export function createRenderer(opts: RendererOptions): Renderer {
  const fetchEngine = new FetchEngine(opts);
  // The engines' own policy (FetchEngine, BrowserEngine): the same addresses are refused here.
  const targetPolicy = opts.allowPrivateTargets ? undefined : isForbiddenAddress;
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
      idleCloseMs: opts.browser.idleCloseMs,
      challengeWaitMs: opts.browser.challengeWaitMs,
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
    if (req.proxy === 'none' || req.proxy === 'auto' || proxies.length === 0) return req;
    const proxy = proxies[nextProxy++ % proxies.length];
    return { ...req, request: { ...req.request, proxy } };
  };

  /**
   * The browser, unless the URL answers with a document: Chromium refuses a non-HTML main response
   * (415, a download), may pass a big document's byte cap first, and shows an untyped PDF in its
   * viewer; in those cases the fetch engine reads the URL once more (inside the same budget), and
   * a document comes back as its bytes, anything else keeps the browser's outcome. On a document,
   * `actions` are refused (422 ACTION_FAILED: there is no page to click or type in, and their
   * outputs cannot be produced) while `screenshot` is ignored (the result simply has none), so a
   * crawl asking for screenshots still converts the PDFs it meets.
   */
  const browserOrDocument = async (req: RenderRequest, ctx: RenderContext): Promise<RenderResult> => {
    // The main document's conditional question goes first, through the fetch engine's guarded
    // path: Chromium aborts a navigation answered 304 and reports no response to tell it by. A 304
    // ends the render before Chromium is asked for anything; any other answer is closed unread and
    // the browser loads the page as always.
    if (req.revalidate) {
      const unchanged = await fetchEngine.revalidate(req, ctx);
      if (unchanged) return { ...unchanged, elapsedMs: Date.now() - ctx.started };
    }
    const asDocument = async (): Promise<RenderResult | undefined> => {
      let fetched: RenderResult;
      try {
        fetched = await run(fetchEngine, { ...req, actions: undefined, screenshot: undefined }, ctx);
      } catch (err) {
        // A document too big for MAX_DOCUMENT_BYTES says so; other failures keep the browser's error.
        if (err instanceof TargetTooLargeError && err.details?.documentKind) throw err;
        return undefined;
      }
      if (!fetched.bytes) return undefined;
      if ((req.actions?.length ?? 0) > 0)
        throw new ActionFailedError(
          `Actions cannot run on a document: ${req.url} is ${fetched.contentType}, not a web page`,
          { details: { action: req.actions?.[0]?.type ?? 'unknown', index: 0 } },
        );
      if (req.screenshot) opts.logger?.debug({ url: req.url }, 'screenshot ignored: the URL is a document');
      return fetched;
    };
    let rendered: RenderResult;
    try {
      rendered = await run(browser(), req, ctx);
    } catch (err) {
      if (
        ctx.signal.aborted ||
        !(err instanceof UnsupportedContentTypeError || err instanceof TargetTooLargeError)
      )
        throw err;
      const document = await asDocument();
      if (document) return document;
      throw err;
    }
    if (rendered.headers['content-type'] || rendered.statusCode === 304) return rendered;
    return (await asDocument()) ?? rendered;
  };

  const renderWithin = async (asked: RenderRequest, ctx: RenderContext): Promise<RenderResult> => {
    const picked = pickProxy(asked);
    // A copy has no screenshot or action outputs to stand for: such a render is never conditional.
    const { revalidate, ...unconditional } = picked;
    const req: RenderRequest =
      revalidate && ((picked.actions?.length ?? 0) > 0 || picked.screenshot !== undefined)
        ? unconditional
        : picked;
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
      if (opts.browser.enabled) return browserOrDocument(req, ctx);
      if (mode === 'browser')
        throw new ServiceUnavailableError('Browser rendering is disabled on this server');
      opts.logger?.warn({ url: req.url }, 'waitForMs ignored: browser disabled, using fetch');
    }
    let fetched = await run(fetchEngine, req, ctx);
    // A document never goes through Chromium: its bytes are the result. Nor does a 304: the
    // caller's copy (rendered before, if it needed it) stands.
    if (fetched.bytes || fetched.statusCode === 304) return fetched;
    if (mode !== 'auto' || !opts.browser.enabled) return fetched;
    // An error answer is not rendered for its JavaScript: the scraper fails it, or (a wall) asks the
    // browser itself, told to wait for the challenge (its fetch ladder).
    if (fetched.statusCode >= 400) return fetched;
    if (!HTML_TYPES.has(fetched.contentType)) return fetched;
    if (fetched.raw && req.deferText) {
      const check = await req.deferText(fetched);
      if (!check.needsJavaScript) return fetched;
      const { raw: _raw, ...decoded } = fetched;
      fetched = { ...decoded, body: check.text };
    } else if (!needsJavaScript(fetched.body)) return fetched;

    opts.logger?.debug({ url: req.url }, 'page needs JavaScript; rendering with the browser');
    try {
      // Render the final URL: the redirect chain has already been checked and followed once (and
      // answered 200 to the validators, if any: the page changed).
      const { revalidate: _asked, ...render } = req;
      return { ...(await run(browser(), { ...render, url: fetched.finalUrl }, ctx)), requestedUrl: req.url };
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
    features: {
      browser: opts.browser.enabled,
      proxies: proxies.length > 0,
      proxyMode: opts.proxyMode ?? 'auto',
    },

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
        if (controller.signal.aborted && !isActionTimeout(err, controller.signal))
          throw abortReason(controller.signal);
        throw err;
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onCallerAbort);
        inFlight.delete(controller);
      }
    },

    async checkTarget(url: string): Promise<void> {
      await checkUrl(url, targetPolicy);
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const c of inFlight) c.abort(new ServiceUnavailableError('Renderer is closing'));
      await Promise.all([fetchEngine.close(), browserEngine?.close()]);
    },
  };
}
