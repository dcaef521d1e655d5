/**
 * The one outbound HTTP request of the service: `openUrl` (status + headers + a decoded body stream)
 * and `readBody` (the stream, capped, as bytes). It owns the address policy on every hop (up front
 * when `isForbidden` is given, and always at connect time through a dispatcher from
 * address-policy.ts), redirects (followed by hand, at most `maxRedirects`; or `manual`), the total
 * time budget, Content-Encoding (gzip/deflate/br, plus gzip by magic bytes on request), byte caps
 * counted after decompression, the default user agent and typed errors from @wcs/errors. With
 * `request.proxy` every connection goes through that upstream proxy (proxy-dispatcher.ts); the
 * target is still resolved and checked before the proxy is asked.
 */
import { PassThrough, pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import {
  InvalidUrlError,
  TargetTooLargeError,
  TimeoutError,
  TooManyRedirectsError,
  UnsupportedContentTypeError,
} from '@wcs/errors';
import type { Dispatcher } from 'undici';
import type { AddressCache } from './address-cache';
import { type AddressPolicy, bareHost, checkUrl } from './address-policy';
import { type HeadersScope, HopHeaders } from './hop-headers';
import { mimeTypeOf, REDIRECT_STATUSES } from './http-constants';
import { abortReason, mapNetworkError } from './network-errors';
import { dispatcherFor, type ProxyDispatchers } from './proxy-dispatcher';
import { discard, release, settleByAbort } from './request-abort';

export const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; WebContentService/0.1)';
export const DEFAULT_MAX_REDIRECTS = 10;
const DEFAULT_ACCEPT = '*/*';

/** What a caller may set per request, passed through as one object from the API to the wire. */
export interface RequestOptions {
  /**
   * Extra request headers (framing headers such as host/content-length are ignored). Sent to the
   * target's origin only (the origin of the URL asked for; not to a redirect's other origin)
   * unless `headersScope` is 'all' (hop-headers.ts).
   */
  headers?: Record<string, string>;
  /** Sent as one `Cookie` header (name → value), to the target's origin only in every scope. */
  cookies?: Record<string, string>;
  /**
   * 'origin' (default): `headers` go to the target's origin only; 'all': to every origin a redirect
   * leads to, except the credentials (Authorization, Cookie, `cookies`), which never leave it.
   */
  headersScope?: HeadersScope;
  /**
   * The upstream proxy for this request (http://, https://, socks5://, socks5h://, optionally
   * with credentials; see proxy-url.ts). Never printed except through redactProxyUrl.
   */
  proxy?: string;
}

export interface OpenOptions {
  /** A dispatcher from createSafeDispatcher/createGuardedAgent: checks every connection's address. */
  dispatcher: Dispatcher;
  /** Check every hop up front (scheme, credentials, every resolved address); undefined = syntax only. */
  isForbidden?: AddressPolicy | undefined;
  /** Recent answers for the up-front checks' lookups (address-cache.ts); each address is still judged. */
  addresses?: AddressCache | undefined;
  /**
   * Pooled dispatchers for `request.proxy` (built with the caller's policy). Without it a
   * one-request dispatcher is made, checking targets with `isForbidden` or, when that is
   * undefined, isForbiddenAddress (the caller's own connect-time policy is not known here).
   */
  proxies?: ProxyDispatchers | undefined;
  method?: 'GET' | 'POST';
  body?: string | Buffer;
  userAgent?: string;
  accept?: string;
  /**
   * The service's own further headers for every hop, such as an Accept-Language chosen from an
   * option (`request.headers` override them on the hops that get those).
   */
  defaultHeaders?: Record<string, string> | undefined;
  request?: RequestOptions | undefined;
  /** Budget of the whole exchange: every hop, headers and body. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** 'follow' (default) or 'manual' (a 3xx is returned as it is; webhooks). */
  redirect?: 'follow' | 'manual';
  maxRedirects?: number;
  /** Refuse a Content-Length above this before reading (TargetTooLargeError). */
  maxBytes?: number | undefined;
  /** Also gunzip a body that starts with the gzip magic bytes without Content-Encoding (sitemaps). */
  gunzipByMagic?: boolean;
}

export interface OpenedResponse {
  statusCode: number;
  /** Final URL after redirects. */
  url: string;
  /** Every URL redirected to, in order. */
  redirects: string[];
  headers: Record<string, string>;
  /** Raw Content-Type header ('' when absent) and its lowercased media type. */
  contentType: string;
  mime: string;
  /** Decoded byte stream; errors with typed errors (use readBody, or mapBodyError). */
  body: Readable;
  /** Aborted on timeout or caller abort. */
  signal: AbortSignal;
  /** Stop reading, free the socket and timers. Safe to call twice. */
  close(): void;
  /** The typed error for a failure while reading `body`. */
  mapBodyError(err: unknown): Error;
}

/** Ours on every hop; the caller's on the hops their scope allows (hop-headers.ts). */
function hopHeaders(target: URL, opts: OpenOptions): HopHeaders {
  const own: Record<string, string> = {
    'user-agent': opts.userAgent ?? DEFAULT_USER_AGENT,
    accept: opts.accept ?? DEFAULT_ACCEPT,
    'accept-encoding': 'gzip, deflate, br',
  };
  for (const [k, v] of Object.entries(opts.defaultHeaders ?? {})) own[k.toLowerCase()] = v;
  return new HopHeaders(target.origin, {
    own,
    caller: opts.request?.headers,
    cookies: opts.request?.cookies,
    scope: opts.request?.headersScope,
  });
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

function flattenHeaders(h: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = headerValue(v) ?? '';
  return out;
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new InvalidUrlError(`Redirect to an invalid URL: ${location.slice(0, 200)}`);
  }
}

/** Layers of Content-Encoding undone at most ("gzip, gzip" is legal; fifty layers is an attack). */
export const MAX_CONTENT_ENCODINGS = 3;

type Decoder = zlib.Gunzip | zlib.BrotliDecompress | zlib.Unzip;

function decoderFor(encoding: string): Decoder | undefined {
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  // Unzip reads zlib-wrapped deflate (the standard) and also gzip mislabelled as deflate.
  if (encoding === 'deflate') return zlib.createUnzip();
  return undefined;
}

/**
 * The decoders for a Content-Encoding header, in the order to apply them (the header lists
 * encodings in the order they were applied). Unknown codings and too many layers are refused
 * (415): their bytes would only be garbage to convert.
 */
function decodersFor(header: string): Decoder[] {
  const codings = header
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length > MAX_CONTENT_ENCODINGS) {
    throw new UnsupportedContentTypeError(
      `Content-Encoding has ${codings.length} layers (at most ${MAX_CONTENT_ENCODINGS})`,
      { details: { contentEncoding: header.slice(0, 200) } },
    );
  }
  const decoders: Decoder[] = [];
  for (const coding of codings.reverse()) {
    const d = decoderFor(coding);
    if (!d) {
      for (const made of decoders) made.destroy();
      throw new UnsupportedContentTypeError(`Unsupported Content-Encoding: ${coding.slice(0, 50)}`, {
        details: { contentEncoding: header.slice(0, 200) },
      });
    }
    decoders.push(d);
  }
  return decoders;
}

/** Pipe through gunzip when the first two bytes are the gzip magic number. */
function gunzipByMagic(src: Readable): Readable {
  const out = new PassThrough();
  let decided = false;
  let head = Buffer.alloc(0);
  const decide = () => {
    decided = true;
    src.pause();
    src.removeListener('data', onData);
    src.removeListener('end', onEnd);
    if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
      const gunzip = zlib.createGunzip();
      gunzip.on('error', (e) => out.destroy(e));
      gunzip.pipe(out);
      gunzip.write(head);
      src.pipe(gunzip);
    } else {
      out.write(head);
      src.pipe(out);
    }
    src.resume();
  };
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    if (head.length >= 2) decide();
  };
  const onEnd = () => {
    if (!decided) {
      decided = true;
      out.end(head);
    }
  };
  src.on('data', onData);
  src.on('end', onEnd);
  src.on('error', (e) => out.destroy(e));
  out.on('close', () => {
    if (!src.destroyed) src.destroy();
  });
  return out;
}

function tooLarge(host: string, max: number): TargetTooLargeError {
  return new TargetTooLargeError(`Response from ${host} exceeds the ${max} byte limit`, {
    details: { maxBodyBytes: max },
  });
}

/**
 * Send one request and follow its redirects (policy re-checked on each hop). Resolves with the
 * final response whatever its status (the caller decides what 404 or 500 means); rejects with
 * typed errors: InvalidUrlError, TargetForbiddenError, DnsResolutionError, TargetUnreachableError,
 * TlsError, TimeoutError, TooManyRedirectsError, TargetTooLargeError (declared length), or the
 * caller signal's reason.
 */
export async function openUrl(rawUrl: string, opts: OpenOptions): Promise<OpenedResponse> {
  const { dispatcher, transient } = dispatcherFor(opts.request?.proxy, opts);
  const controller = new AbortController();
  let host = '';
  const timer = setTimeout(
    () =>
      controller.abort(
        new TimeoutError(`Request to ${host || rawUrl.slice(0, 200)} timed out after ${opts.timeoutMs} ms`),
      ),
    opts.timeoutMs,
  );
  const onAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  const cleanup = () => {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    if (transient) void transient.destroy().catch(() => undefined);
  };
  const fail = (err: unknown): Error =>
    controller.signal.aborted ? abortReason(controller.signal) : mapNetworkError(err, host);

  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let method = opts.method ?? 'GET';
  let body = opts.body;
  const redirects: string[] = [];
  try {
    let url = await checkUrl(rawUrl, opts.isForbidden, opts.addresses);
    const headers = hopHeaders(url, opts);
    for (;;) {
      host = bareHost(url.hostname);
      if (controller.signal.aborted) throw abortReason(controller.signal);
      let res: Dispatcher.ResponseData;
      try {
        res = await settleByAbort(
          dispatcher.request({
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method,
            headers: headers.for(url),
            ...(body !== undefined ? { body } : {}),
            signal: controller.signal,
            headersTimeout: opts.timeoutMs,
            bodyTimeout: opts.timeoutMs,
          }),
          controller.signal,
        );
      } catch (err) {
        throw fail(err);
      }
      const location = headerValue(res.headers.location);
      const declared = Number(headerValue(res.headers['content-length']));
      if (opts.redirect !== 'manual' && REDIRECT_STATUSES.has(res.statusCode) && location) {
        // A redirect's body is never needed; don't let it hold the socket.
        await release(res.body, declared);
        if (redirects.length >= maxRedirects) {
          throw new TooManyRedirectsError(`More than ${maxRedirects} redirects starting at ${rawUrl}`, {
            details: { redirects },
          });
        }
        const next = await checkUrl(resolveLocation(location, url), opts.isForbidden, opts.addresses);
        if (
          res.statusCode === 303 ||
          ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')
        ) {
          method = 'GET';
          body = undefined;
          headers.dropBody();
        }
        url = next;
        redirects.push(url.href);
        continue;
      }

      if (opts.maxBytes !== undefined && Number.isFinite(declared) && declared > opts.maxBytes) {
        discard(res.body);
        throw tooLarge(url.host, opts.maxBytes);
      }
      let decoders: Decoder[];
      try {
        decoders = decodersFor(headerValue(res.headers['content-encoding']) ?? '');
      } catch (err) {
        discard(res.body);
        throw err;
      }
      // Decoded bytes are counted by readBody, after every layer: a bomb stops at the cap.
      let decoded: Readable = res.body;
      if (decoders.length > 0) {
        pipeline([res.body, ...decoders], () => undefined);
        decoded = decoders[decoders.length - 1]!;
      }
      if (opts.gunzipByMagic) decoded = gunzipByMagic(decoded);
      const finalHost = url.host;
      const close = () => {
        cleanup();
        // An answer without a body (304, 204, Content-Length: 0) ends by itself: read to its end,
        // its keep-alive connection serves the next request. Destroyed mid-message, the socket
        // would close (a recrawl's 304s each paid a new connection) and undici would build an
        // abort error, stack trace and all, that nobody reads.
        if (res.statusCode === 304 || res.statusCode === 204 || declared === 0) {
          decoded.on('error', () => undefined);
          decoded.resume();
          return;
        }
        // Undecoded, a body that has all arrived (a short error page) is read to its end too.
        if (decoded === res.body) {
          void release(res.body, declared);
          return;
        }
        discard(res.body);
        for (const d of decoders) d.destroy();
        if (!decoded.destroyed) decoded.destroy();
      };
      decoded.on('close', cleanup);
      const contentType = headerValue(res.headers['content-type']) ?? '';
      return {
        statusCode: res.statusCode,
        url: url.href,
        redirects,
        headers: flattenHeaders(res.headers),
        contentType,
        mime: mimeTypeOf(contentType),
        body: decoded,
        signal: controller.signal,
        close,
        mapBodyError: (err) => {
          if (err instanceof TargetTooLargeError) return err;
          return controller.signal.aborted
            ? abortReason(controller.signal)
            : mapNetworkError(err, bareHost(finalHost));
        },
      };
    }
  } catch (err) {
    cleanup();
    if (controller.signal.aborted) throw abortReason(controller.signal);
    throw err;
  }
}

export interface ReadBodyOptions {
  /** Cap on decoded bytes. */
  maxBytes: number;
  /**
   * Called once with the first `headBytes` decoded bytes (or the whole body if shorter), before
   * the rest is read: throw to refuse the body (content sniffing) without downloading it.
   */
  onHead?: (head: Buffer) => void;
  /** Default 1024 (the sniff window of content-sniff.ts). */
  headBytes?: number;
  /** 'throw' (default): TargetTooLargeError past the cap; 'truncate': keep the first maxBytes. */
  overflow?: 'throw' | 'truncate';
}

/**
 * Read the decoded body, counting bytes after decompression (a small gzip bomb is still capped),
 * and close the response. Nothing beyond the cap is buffered.
 */
export async function readBody(res: OpenedResponse, opts: ReadBodyOptions): Promise<Buffer> {
  const max = opts.maxBytes;
  const chunks: Buffer[] = [];
  let size = 0;
  const headBytes = opts.headBytes ?? 1024;
  let headSeen = !opts.onHead;
  const inspect = () => {
    headSeen = true;
    try {
      opts.onHead?.(Buffer.concat(chunks, size));
    } catch (err) {
      throw new HeadRefused(err);
    }
  };
  try {
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      if (!headSeen && size + buf.length >= headBytes) {
        chunks.push(buf);
        size += buf.length;
        inspect();
        if (size > max) {
          if (opts.overflow !== 'truncate') throw tooLarge(new URL(res.url).host, max);
          return Buffer.concat(chunks, size).subarray(0, max);
        }
        continue;
      }
      if (size + buf.length > max) {
        if (opts.overflow !== 'truncate') throw tooLarge(new URL(res.url).host, max);
        chunks.push(buf.subarray(0, max - size));
        size = max;
        break;
      }
      size += buf.length;
      chunks.push(buf);
    }
    if (!headSeen) inspect();
  } catch (err) {
    if (err instanceof HeadRefused) throw err.reason;
    throw res.mapBodyError(err);
  } finally {
    res.close();
  }
  return Buffer.concat(chunks, size);
}

/** Carries what `onHead` threw past the network-error mapping, unchanged. */
class HeadRefused {
  constructor(readonly reason: unknown) {}
}
