/**
 * The two stores a scrape may need beside the web, as the scraper sees them. @wcs/db implements
 * both (PostgreSQL, or an S3 bucket for screenshot bytes); workers pass them in.
 */
import type { EngineName } from '@wcs/renderer';

/** Keeps a PNG for the account and answers the URL it is served at (under the account's key). */
export interface ScreenshotStore {
  save(accountId: string, png: Buffer): Promise<{ id: string; url: string }>;
}

/** A fetched page as the page cache keeps it (what the content step needs to run again). */
export interface CachedPage {
  url: string;
  finalUrl: string;
  statusCode: number;
  contentType: string;
  engine: EngineName;
  body: string;
  /**
   * `body` compressed already, by the content thread that decoded the page (`body` is then ''):
   * the store keeps these bytes as they are (page-body-codec.ts).
   */
  compressedBody?: { encoding: 'br'; bytes: Uint8Array; size: number };
  headers: Record<string, string>;
  redirects: string[];
  fetchedAt: Date;
}

/** The page cache (`maxAge`), keyed by pageCacheKey(); shared by every account of the deployment. */
export interface PageCacheStore {
  /** The entry for `key` fetched at or after `fetchedAfter`, if any. */
  get(key: string, fetchedAfter: Date): Promise<CachedPage | undefined>;
  /** Store (or replace) the entry. Failures are the caller's to ignore: the cache is best effort. */
  put(key: string, page: CachedPage): Promise<void>;
}

/** What a worker hands every page it scrapes: the page cache and the screenshot store. */
export interface PageStores {
  cache?: PageCacheStore;
  screenshots?: ScreenshotStore;
}
