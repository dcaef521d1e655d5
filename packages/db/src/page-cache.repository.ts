import { promisify } from 'node:util';
import {
  brotliCompress as brotliCb,
  brotliCompressSync,
  constants,
  gunzip as gunzipCb,
  brotliDecompress as unbrotliCb,
} from 'node:zlib';
import type { Db } from './db';
import { Prisma } from './generated/prisma/client';
import { ASYNC_COMMIT, sqlClient } from './sql-client';

const brotli = promisify(brotliCb);
const unbrotli = promisify(unbrotliCb);
const gunzip = promisify(gunzipCb);

/**
 * Every cacheable page fetched is stored (scrapes, batch items, crawl pages), so compression is on the hot path of scrapes and crawls: Brotli at
 * quality 0 costs ~0.37 ms for a 170 KB page (quality 1: ~0.52 ms, gzip level 1: ~0.97 ms, gzip's
 * default level ~1.9 ms) for 22.5 % of its size (quality 1: 21.4 %, gzip level 1: 22.9 %; measured
 * on bench/article-extraction's pages). @wcs/scraper's page-body-codec.ts compresses alike.
 */
const BROTLI_OPTIONS = (bytes: number) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 0,
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
    [constants.BROTLI_PARAM_LGWIN]: windowBits(bytes),
  },
});

/**
 * Bodies up to this size are compressed on the calling thread. The asynchronous call hands the work
 * to libuv's pool and back: ~0.2 ms of CPU per call on a 2-core VM on top of the compression, which
 * for a 3 KB page costs ~0.03 ms itself (a 170 KB one ~0.4 ms). Larger bodies still go to the
 * pool, so no event loop stops for more than ~0.6 ms here.
 */
const SYNC_COMPRESS_MAX_BYTES = 256 * 1024;

/**
 * The smallest window that holds the whole body (brotli's default is 4 MB, 22 bits): each
 * compression allocates and clears buffers of the window's size on the worker's main thread, which
 * the profile of a scrape showed as one of its top costs; the output is byte for byte the same for
 * bodies that fit (the decoder reads the window from the stream).
 */
function windowBits(bytes: number): number {
  return Math.min(
    constants.BROTLI_MAX_WINDOW_BITS,
    Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(Math.max(1, bytes)))),
  );
}

/** A fetched page as the cache keeps it (structurally @wcs/scraper's CachedPage). */
export interface CachedPageRecord {
  url: string;
  finalUrl: string;
  statusCode: number;
  contentType: string;
  engine: 'fetch' | 'browser';
  body: string;
  /**
   * `body` as UTF-8 compressed with Brotli (`size`: its UTF-8 bytes) by the caller; when set, stored
   * as it is instead of `body` (which may then be '').
   */
  compressedBody?: { encoding: 'br'; bytes: Uint8Array; size: number };
  headers: Record<string, string>;
  redirects: string[];
  fetchedAt: Date;
}

/** Bodies larger than this (UTF-8 bytes, before compression) are not cached by default. */
export const DEFAULT_PAGE_CACHE_MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * Response headers a cached copy leaves out: it is served to every account of the deployment, and
 * a cookie the site set for one fetch belongs to no caller.
 */
const UNSHARED_HEADERS = new Set(['set-cookie', 'set-cookie2']);

/**
 * The page cache (`maxAge`): one entry per key (pageCacheKey of @wcs/scraper: the URL and
 * the options that change what is fetched), shared by every account. Bodies are Brotli-compressed
 * (`meta.encoding: 'br'`; entries written before that are gzip and still read).
 * Best effort by design: callers ignore its failures. Implements @wcs/scraper's PageCacheStore.
 */
export class PageCacheRepository {
  private readonly maxBodyBytes: number;

  constructor(
    private readonly db: Db,
    opts: { maxBodyBytes?: number } = {},
  ) {
    this.maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_PAGE_CACHE_MAX_BODY_BYTES;
  }

  /** The entry for `key` fetched at or after `fetchedAfter`; undefined when missing, older or unreadable. */
  async get(key: string, fetchedAfter: Date): Promise<CachedPageRecord | undefined> {
    return this.read(
      await this.db.prisma.pageCacheEntry.findFirst({ where: { key, fetchedAt: { gte: fetchedAfter } } }),
    );
  }

  /** The entry for `key` whatever its age (`maxAge` revalidates a stale one); undefined when missing or unreadable. */
  async latest(key: string): Promise<CachedPageRecord | undefined> {
    return this.read(await this.db.prisma.pageCacheEntry.findUnique({ where: { key } }));
  }

  /**
   * A 304 confirmed the entry fetched at `was`: it counts as fetched at `fetchedAt`, and the
   * validators the 304 sent replace the stored ones. Only that entry: one replaced meanwhile by a
   * newer copy is left alone (false).
   */
  async refresh(
    key: string,
    was: Date,
    fetchedAt: Date,
    validators: { etag?: string; lastModified?: string },
  ): Promise<boolean> {
    const headers = JSON.stringify({
      ...(validators.etag ? { etag: validators.etag } : {}),
      ...(validators.lastModified ? { 'last-modified': validators.lastModified } : {}),
    });
    const n = await sqlClient(this.db).$executeRaw`
      UPDATE page_cache
      SET fetched_at = ${fetchedAt},
          meta = jsonb_set(meta, '{headers}', COALESCE(meta->'headers', '{}'::jsonb) || ${headers}::jsonb)
      WHERE key = ${key} AND fetched_at = ${was} AND fetched_at < ${fetchedAt}`;
    return n > 0;
  }

  private async read(
    row: Awaited<ReturnType<Db['prisma']['pageCacheEntry']['findFirst']>>,
  ): Promise<CachedPageRecord | undefined> {
    if (!row) return undefined;
    const meta = readMeta(row.meta);
    if (!meta || (row.engine !== 'fetch' && row.engine !== 'browser')) return undefined;
    let body: string;
    try {
      body = (await (meta.encoding === 'br' ? unbrotli : gunzip)(row.body)).toString('utf8');
    } catch {
      return undefined;
    }
    return {
      url: row.url,
      finalUrl: row.finalUrl,
      statusCode: row.statusCode,
      contentType: row.contentType,
      engine: row.engine,
      body,
      headers: meta.headers,
      redirects: meta.redirects,
      fetchedAt: row.fetchedAt,
    };
  }

  /**
   * Store the page under `key`, replacing an entry fetched earlier; an entry fetched later (a
   * concurrent scrape that finished first with a newer copy) is kept. A body over the cap is not
   * stored (and the older entry stays, still bounded by its own fetch time).
   */
  async put(key: string, page: CachedPageRecord): Promise<void> {
    const row = await this.row(key, page);
    // Every stored page pays this statement: a prepared one through pg (sql-client.ts), not Prisma's.
    if (row) await sqlClient(this.db).$executeRaw(pageCacheInsert([row], { asyncCommit: true }));
  }

  /**
   * The row `put` writes for the page (its body compressed), for a caller that writes it inside a
   * statement of its own (`pageCacheInsert`: a crawl page's completion); undefined when the body is
   * over the cap (nothing is stored).
   */
  async row(key: string, page: CachedPageRecord): Promise<PageCacheRow | undefined> {
    const given = page.compressedBody;
    let body: Buffer;
    if (given) {
      if (given.size > this.maxBodyBytes) return undefined;
      body = Buffer.from(given.bytes.buffer, given.bytes.byteOffset, given.bytes.byteLength);
    } else {
      const raw = Buffer.from(page.body, 'utf8');
      if (raw.length > this.maxBodyBytes) return undefined;
      body =
        raw.length <= SYNC_COMPRESS_MAX_BYTES
          ? brotliCompressSync(raw, BROTLI_OPTIONS(raw.length))
          : await brotli(raw, BROTLI_OPTIONS(raw.length));
    }
    const headers = Object.fromEntries(
      Object.entries(page.headers).filter(([name]) => !UNSHARED_HEADERS.has(name.toLowerCase())),
    );
    return {
      key,
      url: page.url,
      finalUrl: page.finalUrl,
      statusCode: page.statusCode,
      contentType: page.contentType,
      engine: page.engine,
      body,
      meta: JSON.stringify({ headers, redirects: page.redirects, encoding: 'br' }),
      fetchedAt: page.fetchedAt,
    };
  }

  /** Delete entries fetched before `date` (the retention sweep: PAGE_CACHE_TTL_HOURS). */
  async purgeOlderThan(date: Date): Promise<number> {
    const r = await this.db.prisma.pageCacheEntry.deleteMany({ where: { fetchedAt: { lt: date } } });
    return r.count;
  }
}

interface CachedMeta {
  headers: Record<string, string>;
  redirects: string[];
  /** Absent on entries written before Brotli: gzip. */
  encoding?: 'br';
}

/** The entry's `meta` column as `put` writes it; anything else makes the entry unreadable. */
function readMeta(meta: unknown): CachedMeta | undefined {
  if (!meta || typeof meta !== 'object') return undefined;
  const { headers, redirects, encoding } = meta as Partial<Record<keyof CachedMeta, unknown>>;
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) return undefined;
  if (!Object.values(headers).every((v) => typeof v === 'string')) return undefined;
  if (!Array.isArray(redirects) || !redirects.every((r) => typeof r === 'string')) return undefined;
  if (encoding !== undefined && encoding !== 'br') return undefined;
  return {
    headers: headers as Record<string, string>,
    redirects: redirects as string[],
    ...(encoding === 'br' ? { encoding } : {}),
  };
}

/** A page-cache entry as written: `PageCacheRepository.row` makes it, `pageCacheInsert` writes it. */
export interface PageCacheRow {
  key: string;
  url: string;
  finalUrl: string;
  statusCode: number;
  contentType: string;
  engine: string;
  /** Brotli. */
  body: Buffer;
  /** `CachedMeta` as JSON. */
  meta: string;
  fetchedAt: Date;
}

/**
 * The INSERT of page-cache rows: each replaces an entry fetched earlier, never one fetched later (a
 * concurrent scrape that stored a newer copy first). Alone (`put`, committed without waiting for
 * the WAL flush: a lost entry costs a fetch), or as a data-modifying CTE of another statement,
 * whose commit it then shares (a crawl page's completion: the copy is written with the page it
 * lists, no statement of its own). Keys must be distinct (one row can be updated once a statement).
 */
export function pageCacheInsert(rows: PageCacheRow[], opts: { asyncCommit?: boolean } = {}): Prisma.Sql {
  const values = Prisma.join(
    rows.map(
      (r) => Prisma.sql`(${r.key}::text, ${r.url}::text, ${r.finalUrl}::text, ${r.statusCode}::int,
        ${r.contentType}::text, ${r.engine}::text, ${r.body}::bytea, ${r.meta}::jsonb, ${r.fetchedAt}::timestamptz)`,
    ),
  );
  return Prisma.sql`
      INSERT INTO page_cache (key, url, final_url, status_code, content_type, engine, body, meta, fetched_at)
      SELECT v.key, v.url, v.final_url, v.status_code, v.content_type, v.engine, v.body, v.meta, v.fetched_at
      FROM (VALUES ${values})
        AS v(key, url, final_url, status_code, content_type, engine, body, meta, fetched_at)
      ${opts.asyncCommit ? Prisma.sql`CROSS JOIN ${ASYNC_COMMIT}` : Prisma.empty}
      ON CONFLICT (key) DO UPDATE SET
        url = EXCLUDED.url, final_url = EXCLUDED.final_url, status_code = EXCLUDED.status_code,
        content_type = EXCLUDED.content_type, engine = EXCLUDED.engine, body = EXCLUDED.body,
        meta = EXCLUDED.meta, fetched_at = EXCLUDED.fetched_at
      WHERE page_cache.fetched_at <= EXCLUDED.fetched_at`;
}
