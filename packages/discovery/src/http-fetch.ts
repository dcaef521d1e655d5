/**
 * The small HTTP client of discovery (robots.txt, sitemaps): GET through the caller's SSRF-safe
 * dispatcher, manual redirects (each hop goes through the dispatcher's connect-time address
 * check again), a total deadline, Content-Encoding decoding and gzip detected by magic bytes
 * (sitemap.xml.gz is often served as application/octet-stream without Content-Encoding).
 */
import { PassThrough, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Dispatcher } from 'undici';

export interface FetchOptions {
  dispatcher: Dispatcher;
  userAgent: string;
  /** Budget of one fetch (headers and body). */
  timeoutMs: number;
  /** Cap on decoded bytes. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface OpenedBody {
  statusCode: number;
  finalUrl: string;
  contentType: string;
  /** Decoded (Content-Encoding and gzip magic) byte stream. */
  body: Readable;
  /** Stop reading, free the socket and timers. */
  close(): void;
}

/** Human-readable reason from an error chain (undici hides the interesting part in `cause`). */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let i = 0; i < 4 && cur; i++) {
    const e = cur as { message?: unknown; code?: unknown; cause?: unknown };
    const msg = typeof e.message === 'string' ? e.message : String(cur);
    const code = typeof e.code === 'string' ? ` (${e.code})` : '';
    if (msg && !parts.some((p) => p.includes(msg))) parts.push(`${msg}${code}`);
    cur = e.cause;
  }
  return parts.join(': ') || 'unknown error';
}

function header(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v.join(', ') : (v ?? '')).trim().toLowerCase();
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

/**
 * GET `url`, following up to 5 redirects. Rejects for network errors, bad URLs and timeouts; any
 * HTTP status resolves (the caller decides what 404 or 500 means). The body stream errors if the
 * deadline passes while it is read.
 */
export async function openUrl(url: string, opts: FetchOptions, accept: string): Promise<OpenedBody> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`timed out after ${opts.timeoutMs} ms`)),
    opts.timeoutMs,
  );
  const onAbort = () => controller.abort(opts.signal?.reason ?? new Error('aborted'));
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  const cleanup = () => {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  };

  try {
    let current = new URL(url);
    for (let hop = 0; ; hop++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:')
        throw new Error(`unsupported scheme ${current.protocol}`);
      if (current.username || current.password) throw new Error('URL with credentials refused');
      if (controller.signal.aborted) throw controller.signal.reason;
      const res = await opts.dispatcher.request({
        origin: current.origin,
        path: `${current.pathname}${current.search}`,
        method: 'GET',
        headers: { 'user-agent': opts.userAgent, accept, 'accept-encoding': 'gzip, deflate, br' },
        signal: controller.signal,
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
      });
      const location = header(res.headers.location) ? String(res.headers.location) : '';
      if (REDIRECTS.has(res.statusCode) && location) {
        res.body.on('error', () => undefined);
        res.body.destroy();
        if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
        current = new URL(location, current);
        continue;
      }
      const encoding = header(res.headers['content-encoding']);
      let body: Readable = res.body;
      const decoder =
        encoding === 'gzip' || encoding === 'x-gzip'
          ? zlib.createGunzip()
          : encoding === 'br'
            ? zlib.createBrotliDecompress()
            : encoding === 'deflate'
              ? zlib.createInflate()
              : null;
      if (decoder) {
        res.body.on('error', (e) => decoder.destroy(e));
        body = res.body.pipe(decoder);
      }
      const decoded = gunzipByMagic(body);
      const close = () => {
        cleanup();
        res.body.on('error', () => undefined);
        if (!res.body.destroyed) res.body.destroy();
        decoder?.destroy();
        if (!decoded.destroyed) decoded.destroy();
      };
      decoded.on('close', cleanup);
      return {
        statusCode: res.statusCode,
        finalUrl: current.href,
        contentType: header(res.headers['content-type']).split(';')[0]?.trim() ?? '',
        body: decoded,
        close,
      };
    }
  } catch (err) {
    cleanup();
    if (controller.signal.aborted) throw controller.signal.reason;
    throw err;
  }
}

/** Read a whole (decoded) body as text, truncated at `maxBytes`. */
export async function readText(opened: OpenedBody, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of opened.body) {
      const buf = chunk as Buffer;
      const room = maxBytes - size;
      chunks.push(buf.length > room ? buf.subarray(0, room) : buf);
      size += Math.min(buf.length, room);
      if (size >= maxBytes) break;
    }
  } finally {
    opened.close();
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
