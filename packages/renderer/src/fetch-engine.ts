/**
 * Plain HTTP engine: one `openUrl` from @wcs/net (address policy on every hop and at connect time,
 * redirects, decompression, typed errors), then the renderer's own rules: refuse non-text types
 * before reading and binary bytes after the first KiB (415 either way), cap the body after
 * decompression, decode the charset. `request.proxy` (chosen by the renderer) sends it through
 * that upstream proxy; `mobile` and `location` set the user agent and Accept-Language.
 */
import {
  type AddressPolicy,
  createGuardedAgent,
  type Dispatcher,
  decodeBody,
  isForbiddenAddress,
  openUrl,
  ProxyDispatchers,
  readBody,
  redactProxyUrl,
} from '@wcs/net';
import { assertSupportedContentType, assertTextBody } from './content-type';
import { MOBILE_USER_AGENT, resolveLocation } from './emulation';
import type { Engine, RenderContext, RendererLogger, RenderRequest, RenderResult } from './types';

export interface FetchEngineOptions {
  allowPrivateTargets: boolean;
  connectTimeoutMs: number;
  maxBodyBytes: number;
  maxRedirects: number;
  userAgent: string;
  logger?: RendererLogger;
  /** Override which addresses are refused (tests); default: isForbiddenAddress unless allowPrivateTargets. */
  isForbidden?: AddressPolicy;
}

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5';

export class FetchEngine implements Engine {
  readonly name = 'fetch' as const;
  private readonly dispatcher: Dispatcher;
  private readonly policy: AddressPolicy | undefined;
  /** One pooled dispatcher per upstream proxy; the target policy applies before the proxy is asked. */
  private readonly proxies: ProxyDispatchers;

  constructor(private readonly opts: FetchEngineOptions) {
    this.policy = opts.isForbidden ?? (opts.allowPrivateTargets ? undefined : isForbiddenAddress);
    this.dispatcher = createGuardedAgent(opts.connectTimeoutMs, this.policy);
    this.proxies = new ProxyDispatchers({
      connectTimeoutMs: opts.connectTimeoutMs,
      isForbidden: this.policy,
    });
  }

  async render(req: RenderRequest, ctx: RenderContext): Promise<RenderResult> {
    const acceptLanguage = req.location ? resolveLocation(req.location).acceptLanguage : 'en-US,en;q=0.9';
    if (req.request?.proxy)
      this.opts.logger?.debug(
        { url: req.url, proxy: redactProxyUrl(req.request.proxy) },
        'fetching via proxy',
      );
    const res = await openUrl(req.url, {
      dispatcher: this.dispatcher,
      proxies: this.proxies,
      isForbidden: this.policy,
      userAgent: req.mobile ? MOBILE_USER_AGENT : this.opts.userAgent,
      accept: ACCEPT,
      request: {
        ...req.request,
        // The caller's own headers still win over what mobile/location imply.
        headers: { 'accept-language': acceptLanguage, ...req.headers, ...req.request?.headers },
      },
      timeoutMs: Math.max(1, ctx.deadline - Date.now()),
      signal: ctx.signal,
      maxRedirects: this.opts.maxRedirects,
      maxBytes: this.opts.maxBodyBytes,
    });
    if (res.redirects.length > 0)
      this.opts.logger?.debug({ from: req.url, to: res.url, hops: res.redirects.length }, 'redirected');
    // Refuse binary types before downloading them.
    if (res.mime) {
      try {
        assertSupportedContentType(res.mime);
      } catch (err) {
        res.close();
        throw err;
      }
    }
    // …and binary bytes whatever the header says, from the first KiB, before reading the rest.
    let mime = res.mime;
    const bytes = await readBody(res, {
      maxBytes: this.opts.maxBodyBytes,
      onHead: (head) => {
        mime = assertTextBody(head, res.contentType || undefined);
      },
    });
    return {
      requestedUrl: req.url,
      finalUrl: res.url,
      statusCode: res.statusCode,
      contentType: mime,
      body: decodeBody(bytes, res.contentType || undefined).text,
      engine: 'fetch',
      headers: res.headers,
      redirects: res.redirects,
      elapsedMs: Date.now() - ctx.started,
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.dispatcher.destroy(), this.proxies.close()]);
  }
}
