/**
 * Plain HTTP engine: one `openUrl` from @wcs/net (address policy on every hop and at connect time,
 * redirects, decompression, typed errors), then the renderer's own rules: refuse non-text types
 * before reading and binary bytes after the first KiB (415 either way), cap the body after
 * decompression, decode the charset. A document (PDF, DOCX: sniffDocument, by type and bytes) is
 * the exception: read whole as bytes under its own cap (maxDocumentBytes) and returned undecoded. `request.proxy` (chosen by the renderer) sends it through
 * that upstream proxy; `mobile` and `location` set the user agent and Accept-Language. The caller's
 * headers go to the target's origin only (unless `request.headersScope` is 'all'): @wcs/net's hop-headers.
 */
import { ServiceError, TargetTooLargeError } from '@wcs/errors';
import {
  AddressCache,
  type AddressPolicy,
  createGuardedAgent,
  type Dispatcher,
  DOCUMENT_SNIFF_BYTES,
  type DocumentKind,
  decodeBody,
  documentMediaType,
  isForbiddenAddress,
  mayBeDocument,
  type OpenedResponse,
  openUrl,
  ProxyDispatchers,
  redactProxyUrl,
  SNIFF_WINDOW_BYTES,
  sniffDocument,
} from '@wcs/net';
import { BodyBytes } from './body-bytes';
import { assertSupportedContentType, assertTextBody } from './content-type';
import { MOBILE_USER_AGENT, resolveLocation } from './emulation';
import type { Engine, RenderContext, RendererLogger, RenderRequest, RenderResult, Validators } from './types';

export interface FetchEngineOptions {
  allowPrivateTargets: boolean;
  connectTimeoutMs: number;
  maxBodyBytes: number;
  /** Cap on a document (PDF/DOCX) instead of maxBodyBytes; default DEFAULT_MAX_DOCUMENT_BYTES. */
  maxDocumentBytes?: number;
  maxRedirects: number;
  userAgent: string;
  logger?: RendererLogger;
  /** Override which addresses are refused (tests); default: isForbiddenAddress unless allowPrivateTargets. */
  isForbidden?: AddressPolicy;
}

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5';

/** MAX_DOCUMENT_BYTES' default: 50 MB. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

function tooLarge(url: string, max: number, kind: DocumentKind | undefined): TargetTooLargeError {
  const host = new URL(url).host;
  if (!kind)
    return new TargetTooLargeError(`Response from ${host} exceeds the ${max} byte limit`, {
      details: { maxBodyBytes: max },
    });
  return new TargetTooLargeError(
    `The ${kind === 'pdf' ? 'PDF' : 'Word'} document from ${host} exceeds the ${max} byte document limit (MAX_DOCUMENT_BYTES)`,
    { details: { maxDocumentBytes: max, documentKind: kind } },
  );
}

/**
 * `If-None-Match` / `If-Modified-Since` for a copy's validators (RFC 9110 §13.1: a server that
 * knows the ETag uses it and ignores the date). Values with a line break are never sent.
 */
export function conditionalHeaders(v: Validators | undefined): Record<string, string> {
  const safe = (s: string | undefined) => (s && !/[\r\n]/.test(s) ? s : undefined);
  const etag = safe(v?.etag);
  const lastModified = safe(v?.lastModified);
  return {
    ...(etag ? { 'if-none-match': etag } : {}),
    ...(lastModified ? { 'if-modified-since': lastModified } : {}),
  };
}

/** A 304 as a result: `notModified` only when the request was conditional. */
function notModified(req: RenderRequest, res: OpenedResponse, ctx: RenderContext): RenderResult {
  return {
    requestedUrl: req.url,
    finalUrl: res.url,
    statusCode: 304,
    contentType: res.mime,
    body: '',
    engine: 'fetch',
    headers: res.headers,
    redirects: res.redirects,
    elapsedMs: Date.now() - ctx.started,
    ...(req.revalidate ? { notModified: true as const } : {}),
  };
}

export class FetchEngine implements Engine {
  readonly name = 'fetch' as const;
  private readonly dispatcher: Dispatcher;
  private readonly policy: AddressPolicy | undefined;
  private readonly addresses: AddressCache;
  /** One pooled dispatcher per upstream proxy; the target policy applies before the proxy is asked. */
  private readonly proxies: ProxyDispatchers;

  constructor(private readonly opts: FetchEngineOptions) {
    this.policy = opts.isForbidden ?? (opts.allowPrivateTargets ? undefined : isForbiddenAddress);
    // One cache for the up-front checks and the connect-time lookups: a host is resolved once
    // every few seconds, not twice per page.
    this.addresses = new AddressCache();
    this.dispatcher = createGuardedAgent(opts.connectTimeoutMs, this.policy, this.addresses);
    this.proxies = new ProxyDispatchers({
      connectTimeoutMs: opts.connectTimeoutMs,
      isForbidden: this.policy,
    });
  }

  async render(req: RenderRequest, ctx: RenderContext): Promise<RenderResult> {
    const res = await this.open(req, ctx);
    if (res.redirects.length > 0)
      this.opts.logger?.debug({ from: req.url, to: res.url, hops: res.redirects.length }, 'redirected');
    // A 304 has no body to read: closed unread, the caller's copy stands (or, asked for nothing,
    // the caller refuses the answer: it has no copy to show).
    if (res.statusCode === 304) {
      res.close();
      return notModified(req, res, ctx);
    }
    // Refuse binary types before downloading them (unless a document may hide behind the type).
    if (res.mime && !mayBeDocument(res.mime)) {
      try {
        assertSupportedContentType(res.mime);
      } catch (err) {
        res.close();
        throw err;
      }
    }
    const body = await this.readCapped(res);
    const common = {
      requestedUrl: req.url,
      finalUrl: res.url,
      statusCode: res.statusCode,
      engine: 'fetch' as const,
      headers: res.headers,
      redirects: res.redirects,
      elapsedMs: Date.now() - ctx.started,
    };
    if (body.kind)
      return {
        ...common,
        contentType: documentMediaType(body.kind),
        body: '',
        bytes: body.bytes,
        documentKind: body.kind,
      };
    // The caller decodes (deferText): its content thread reads the bytes, not a copied string.
    if (req.deferText)
      return {
        ...common,
        contentType: body.mime,
        body: '',
        raw: { bytes: body.bytes, ...(res.contentType ? { contentTypeHeader: res.contentType } : {}) },
      };
    return {
      ...common,
      contentType: body.mime,
      body: decodeBody(body.bytes, res.contentType || undefined).text,
    };
  }

  /**
   * Only the conditional question for a copy's validators (`req.revalidate`): the `notModified`
   * answer on a 304, else undefined with the answer closed unread (at most what was in flight with
   * its head is received). The browser engine's main document asks this first: Chromium aborts a
   * navigation answered 304 without reporting the response (no Playwright or CDP response event).
   */
  async revalidate(req: RenderRequest, ctx: RenderContext): Promise<RenderResult | undefined> {
    if (Object.keys(conditionalHeaders(req.revalidate)).length === 0) return undefined;
    const res = await this.open(req, ctx);
    res.close();
    return res.statusCode === 304 ? notModified(req, res, ctx) : undefined;
  }

  private open(req: RenderRequest, ctx: RenderContext): Promise<OpenedResponse> {
    const acceptLanguage = req.location ? resolveLocation(req.location).acceptLanguage : 'en-US,en;q=0.9';
    if (req.request?.proxy)
      this.opts.logger?.debug(
        { url: req.url, proxy: redactProxyUrl(req.request.proxy) },
        'fetching via proxy',
      );
    return openUrl(req.url, {
      dispatcher: this.dispatcher,
      proxies: this.proxies,
      isForbidden: this.policy,
      addresses: this.addresses,
      userAgent: req.mobile ? MOBILE_USER_AGENT : this.opts.userAgent,
      accept: ACCEPT,
      // Ours, so on every hop (the validators too: they belong to the redirect's end); the
      // caller's own headers win over them where they are sent.
      defaultHeaders: { 'accept-language': acceptLanguage, ...conditionalHeaders(req.revalidate) },
      request: { ...req.request, headers: { ...req.headers, ...req.request?.headers } },
      timeoutMs: Math.max(1, ctx.deadline - Date.now()),
      signal: ctx.signal,
      maxRedirects: this.opts.maxRedirects,
      // No cap up front: readCapped checks Content-Length against the right cap once the head
      // tells document or text (one KiB read, so a too-big PDF is named as one).
    });
  }

  /**
   * The decoded body, its cap chosen by its head: the first KiB (more for a ZIP, whose `word/`
   * entry may come later) says document or text before the rest is read, and refuses binary
   * bytes (415) unread. A document may grow to maxDocumentBytes, text to maxBodyBytes; a declared
   * Content-Length over the cap is refused without reading on. The whole read stays inside the
   * request's time budget (openUrl's timeout covers the body).
   */
  private async readCapped(
    res: OpenedResponse,
  ): Promise<{ bytes: Buffer; kind?: DocumentKind; mime: string }> {
    let decided: { kind?: DocumentKind; mime: string; max: number } | undefined;
    const declaredLength = Number(res.headers['content-length']);
    const body = new BodyBytes(
      Number.isSafeInteger(declaredLength) && !res.headers['content-encoding'] ? declaredLength : undefined,
    );
    const decide = () => {
      const head = body.head();
      const kind = sniffDocument(head, res.contentType || undefined);
      const max = kind ? (this.opts.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES) : this.opts.maxBodyBytes;
      decided = kind
        ? { kind, mime: documentMediaType(kind), max }
        : { mime: assertTextBody(head, res.contentType || undefined), max };
      // Content-Length is of the encoded body; past the cap it is too large either way.
      if (Number.isFinite(declaredLength) && declaredLength > max && !res.headers['content-encoding'])
        throw tooLarge(res.url, max, kind);
      if (kind) body.presize();
    };
    // A ZIP that is not yet known as a DOCX is read further before deciding (its word/ entry tells).
    const headComplete = (head: Buffer) =>
      body.size >= DOCUMENT_SNIFF_BYTES ||
      head[0] !== 0x50 ||
      head[1] !== 0x4b ||
      sniffDocument(head, res.contentType || undefined) !== undefined;
    try {
      for await (const chunk of res.body) {
        body.push(chunk as Buffer);
        if (!decided) {
          if (body.size < SNIFF_WINDOW_BYTES || !headComplete(body.head())) continue;
          decide();
        }
        if (decided && body.size > decided.max) throw tooLarge(res.url, decided.max, decided.kind);
      }
      if (!decided) decide();
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      throw res.mapBodyError(err);
    } finally {
      res.close();
    }
    const { kind, mime } = decided as NonNullable<typeof decided>;
    return { bytes: body.bytes(), mime, ...(kind ? { kind } : {}) };
  }

  async close(): Promise<void> {
    await Promise.all([this.dispatcher.destroy(), this.proxies.close()]);
  }
}
