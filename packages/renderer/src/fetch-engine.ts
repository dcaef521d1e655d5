/**
 * Plain HTTP engine on undici: manual redirects with an SSRF check per hop, connect-time SSRF
 * check in the dispatcher, streaming body read with a byte cap, charset decoding.
 */
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { InvalidUrlError, TargetTooLargeError, TooManyRedirectsError } from '@wcs/errors';
import type { Dispatcher } from 'undici';
import { decodeBody } from './charset-decoder';
import { assertSupportedContentType, mimeTypeOf, sniffContentType } from './content-type';
import { abortReason, mapNetworkError } from './network-errors';
import { type AddressPolicy, bareHost, checkUrl, createGuardedAgent, isForbiddenAddress } from './ssrf-guard';
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

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// undici rejects these as request headers; the others are framing we control.
const DROPPED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
]);
// Never forward secrets to another origin after a redirect (same rule as the fetch spec).
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

export class FetchEngine implements Engine {
  readonly name = 'fetch' as const;
  private readonly dispatcher: Dispatcher;
  private readonly policy: AddressPolicy | undefined;

  constructor(private readonly opts: FetchEngineOptions) {
    this.policy = opts.isForbidden ?? (opts.allowPrivateTargets ? undefined : isForbiddenAddress);
    this.dispatcher = createGuardedAgent(opts.connectTimeoutMs, this.policy);
  }

  async render(req: RenderRequest, ctx: RenderContext): Promise<RenderResult> {
    let url = await checkUrl(req.url, this.policy);
    let headers = this.requestHeaders(req.headers);
    const redirects: string[] = [];

    for (;;) {
      const res = await this.send(url, headers, ctx);
      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(res.statusCode) && typeof location === 'string' && location) {
        discard(res.body); // we never need a redirect's body; don't let it hold the socket
        if (redirects.length >= this.opts.maxRedirects) {
          throw new TooManyRedirectsError(
            `More than ${this.opts.maxRedirects} redirects starting at ${req.url}`,
            {
              details: { redirects },
            },
          );
        }
        const next = await checkUrl(resolveLocation(location, url), this.policy);
        if (next.origin !== url.origin) headers = stripCredentials(headers);
        this.opts.logger?.debug({ from: url.href, to: next.href, status: res.statusCode }, 'redirect');
        url = next;
        redirects.push(url.href);
        continue;
      }

      const rawType = headerValue(res.headers['content-type']);
      let mime = mimeTypeOf(rawType);
      // Refuse binary types before downloading them.
      if (mime) assertSupportedContentType(mime);
      const bytes = await this.readBody(res, url, ctx);
      if (!mime) {
        mime = sniffContentType(bytes) ?? 'application/octet-stream';
        assertSupportedContentType(mime);
      }
      return {
        requestedUrl: req.url,
        finalUrl: url.href,
        statusCode: res.statusCode,
        contentType: mime,
        body: decodeBody(bytes, rawType).text,
        engine: 'fetch',
        headers: flattenHeaders(res.headers),
        redirects,
        elapsedMs: Date.now() - ctx.started,
      };
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.destroy();
  }

  private requestHeaders(extra: Record<string, string> | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      'user-agent': this.opts.userAgent,
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5',
      'accept-language': 'en-US,en;q=0.9',
      'accept-encoding': 'gzip, br',
    };
    for (const [k, v] of Object.entries(extra ?? {})) {
      const key = k.toLowerCase();
      if (!DROPPED_HEADERS.has(key)) headers[key] = v;
    }
    return headers;
  }

  private async send(
    url: URL,
    headers: Record<string, string>,
    ctx: RenderContext,
  ): Promise<Dispatcher.ResponseData> {
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    const remaining = Math.max(1, ctx.deadline - Date.now());
    try {
      return await this.dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers,
        signal: ctx.signal,
        headersTimeout: remaining,
        bodyTimeout: remaining,
      });
    } catch (err) {
      if (ctx.signal.aborted) throw abortReason(ctx.signal);
      throw mapNetworkError(err, bareHost(url.hostname));
    }
  }

  /** Streams the body, decompressing, and stops as soon as it exceeds maxBodyBytes. */
  private async readBody(res: Dispatcher.ResponseData, url: URL, ctx: RenderContext): Promise<Buffer> {
    const max = this.opts.maxBodyBytes;
    const tooLarge = () =>
      new TargetTooLargeError(`Response from ${url.host} exceeds the ${max} byte limit`, {
        details: { maxBodyBytes: max },
      });
    const declared = Number(headerValue(res.headers['content-length']));
    if (Number.isFinite(declared) && declared > max) {
      discard(res.body);
      throw tooLarge();
    }

    const encoding = headerValue(res.headers['content-encoding'])?.trim().toLowerCase();
    const decoder =
      encoding === 'gzip' || encoding === 'x-gzip'
        ? zlib.createGunzip()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : encoding === 'deflate'
            ? zlib.createInflate()
            : undefined;
    const source: Readable = decoder ? pipeline(res.body, decoder, () => undefined) : res.body;

    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of source) {
        const buf = chunk as Buffer;
        size += buf.length; // counted after decompression: a small gzip bomb is still capped
        if (size > max) throw tooLarge();
        chunks.push(buf);
      }
    } catch (err) {
      if (ctx.signal.aborted) throw abortReason(ctx.signal);
      throw mapNetworkError(err, bareHost(url.hostname));
    } finally {
      discard(res.body);
      decoder?.destroy();
    }
    return Buffer.concat(chunks, size);
  }
}

/** Destroy a body we stop reading; undici then emits an abort error nobody needs to see. */
function discard(body: Readable): void {
  if (body.destroyed) return;
  body.on('error', () => undefined);
  body.destroy();
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new InvalidUrlError(`Redirect to an invalid URL: ${location.slice(0, 200)}`);
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

function flattenHeaders(h: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = headerValue(v) ?? '';
  return out;
}

function stripCredentials(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).filter(([k]) => !CREDENTIAL_HEADERS.has(k)));
}
