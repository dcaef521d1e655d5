/**
 * Collect page URLs from sitemaps: follows sitemap indexes (at most 3 levels below the given
 * files; each file read once, so an index listing itself or a cycle of indexes ends), gzip (by
 * magic bytes), XML, plain text and RSS/Atom; fetches up to 4 files at a time; streams each file
 * and stops at `maxUrls` unique URLs (never more than SITEMAP_MAX_URLS) or when `signal` aborts
 * (mid-file too); a broken file is skipped and recorded in `errors`, never thrown.
 * URLs come back as written (resolved, no fragment) with their key, de-duplicated by key, in
 * document order (files in the order they are listed), each with its urlset entry's `<lastmod>`
 * when valid (the latest instant it can mean: sitemap-lastmod.ts; the first entry of a URL listed
 * twice is the one kept). No same-site filtering here: callers apply their own rules.
 */
import { describeError } from '@wcs/net';
import { type FetchOptions, open } from './http-fetch';
import { identifyUrl, resolveUrl, type UrlIdentity, urlKey } from './normalize-url';
import { parseSitemapStream } from './sitemap-parser';

export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
export const SITEMAP_MAX_FILES = 50;
export const SITEMAP_MAX_DEPTH = 3;
/** URLs one collection returns at most, whatever the caller asks: 2 full sitemap files. */
export const SITEMAP_MAX_URLS = 100_000;
const CONCURRENCY = 4;
/** Entries of one sitemap index we keep (the protocol allows 50,000). */
const MAX_INDEX_ENTRIES = 50_000;
const ACCEPT = 'application/xml,text/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5';

export interface SitemapOptions extends FetchOptions {
  maxUrls: number;
  /** Total sitemap files fetched, indexes included (default 50). */
  maxFiles?: number;
  /** Files fetched at the same time (default 4). */
  concurrency?: number;
}

/** A sitemap's page: its URL and key, and its entry's `<lastmod>` (latest instant) when valid. */
export interface SitemapUrl extends UrlIdentity {
  lastmod?: Date;
}

export interface SitemapCollection {
  urls: SitemapUrl[];
  errors: string[];
  /** Sitemap files actually fetched. */
  filesFetched?: number;
  /** The signal (a time budget, the caller) stopped the reading: the list may be incomplete. */
  stopped?: boolean;
}

/** FIFO counting semaphore. */
class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}
  async acquire(): Promise<void> {
    if (this.active < this.max) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

export async function collectSitemapUrls(
  sitemapUrls: string[],
  opts: SitemapOptions,
): Promise<SitemapCollection> {
  const maxUrls = Math.max(0, Math.min(opts.maxUrls, SITEMAP_MAX_URLS));
  const maxFiles = opts.maxFiles ?? SITEMAP_MAX_FILES;
  const maxBytes = opts.maxBytes ?? SITEMAP_MAX_BYTES;
  const limiter = new Limiter(Math.max(1, opts.concurrency ?? CONCURRENCY));
  const seen = new Set<string>();
  const visited = new Set<string>();
  const errors: string[] = [];
  let started = 0;
  let skipped = 0;
  let abortedNoted = false;
  const full = () => seen.size >= maxUrls;
  const noteAborted = () => {
    if (!abortedNoted) errors.push('sitemaps: stopped (time budget or caller abort)');
    abortedNoted = true;
  };

  const visit = async (rawUrl: string, depth: number): Promise<SitemapUrl[]> => {
    if (full()) return [];
    if (opts.signal?.aborted) {
      noteAborted();
      return [];
    }
    const key = urlKey(rawUrl);
    if (!key) {
      errors.push(`${rawUrl.slice(0, 200)}: not an http(s) URL`);
      return [];
    }
    if (visited.has(key)) return []; // an index listing itself or a file listed twice
    visited.add(key);
    if (started >= maxFiles) {
      skipped++; // one summary line at the end, not thousands
      return [];
    }
    started++;

    const pages: SitemapUrl[] = [];
    const children: string[] = [];
    await limiter.acquire();
    try {
      if (full()) return [];
      const res = await open(rawUrl, opts, ACCEPT);
      if (res.statusCode < 200 || res.statusCode >= 300) {
        res.close();
        errors.push(`${rawUrl}: HTTP ${res.statusCode}`);
        return [];
      }
      const base = res.url;
      const parsed = await parseSitemapStream(
        res.body,
        {
          onLoc(loc, type, lastmod) {
            if (opts.signal?.aborted) return false; // the budget ended mid-file: keep what was read
            if (type === 'sitemap') {
              const child = resolveUrl(loc, base);
              if (child && children.length < MAX_INDEX_ENTRIES) children.push(child);
              return true;
            }
            if (full()) return false;
            const id = identifyUrl(loc, base);
            if (id && !seen.has(id.key)) {
              seen.add(id.key);
              pages.push(lastmod ? { ...id, lastmod } : id);
            }
            return !full();
          },
        },
        maxBytes,
      ).finally(() => res.close());
      if (parsed.truncated) errors.push(`${rawUrl}: larger than ${maxBytes} bytes; read up to the limit`);
      if (opts.signal?.aborted) noteAborted();
    } catch (err) {
      if (opts.signal?.aborted) noteAborted();
      else errors.push(`${rawUrl}: ${describeError(err)}`);
    } finally {
      limiter.release();
    }

    if (children.length > 0 && !opts.signal?.aborted) {
      if (depth >= SITEMAP_MAX_DEPTH) {
        errors.push(`${rawUrl}: sitemap index nested deeper than ${SITEMAP_MAX_DEPTH} levels; not followed`);
      } else {
        const nested = await Promise.all(children.map((c) => visit(c, depth + 1)));
        for (const list of nested) for (const u of list) pages.push(u);
      }
    }
    return pages;
  };

  const lists = await Promise.all(sitemapUrls.map((u) => visit(u, 0)));
  if (skipped > 0) errors.push(`skipped ${skipped} sitemap file(s): more than ${maxFiles} sitemap files`);
  const urls: SitemapUrl[] = [];
  for (const list of lists) {
    for (const u of list) {
      if (urls.length >= maxUrls) break;
      urls.push(u);
    }
  }
  return { urls, errors, filesFetched: started, ...(abortedNoted ? { stopped: true } : {}) };
}
