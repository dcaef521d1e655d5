/**
 * The two stores a scrape may need beside the web, as the scraper sees them. @wcs/db implements
 * both (PostgreSQL, or an S3 bucket for screenshot bytes); workers pass them in.
 */
import type { EngineName } from '@wcs/renderer';
import type { PageValidators } from './page-validators';

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
  /** The entry for `key` whatever its age (a stale one is revalidated with its validators). */
  latest(key: string): Promise<CachedPage | undefined>;
  /**
   * The site confirmed the entry fetched at `was` current (a 304): it counts as fetched at
   * `fetchedAt`, with the validators the 304 sent (when it sent any). False when the entry changed
   * meanwhile (another scrape stored a newer copy): nothing is updated.
   */
  refresh(key: string, was: Date, fetchedAt: Date, validators: PageValidators): Promise<boolean>;
  /** Store (or replace) the entry. Failures are the caller's to ignore: the cache is best effort. */
  put(key: string, page: CachedPage): Promise<void>;
}

/** What a worker hands every page it scrapes: the page cache, the screenshot store, the change history. */
export interface PageStores {
  cache?: PageCacheStore;
  screenshots?: ScreenshotStore;
  /** The `changeTracking` format's history; without it that format is refused by the worker. */
  history?: ChangeHistoryStore;
}

/** A page's latest tracked scrape, per account, URL key and tag (@wcs/db's page_history). */
export interface ChangeRecord {
  accountId: string;
  urlKey: string;
  /** '' when the scrape named no tag. */
  tag: string;
  url: string;
  /** '' for a removed page (404/410). */
  markdown: string;
  /** sha256 hex of the markdown normalised with cleanMarkdownForHash. */
  contentHash: string;
  statusCode: number;
  /** The page's validators, kept for conditional revalidation. */
  etag: string | null;
  lastModified: string | null;
  /** The document's metadata, returned again when a conditional visit is answered 304. */
  metadata?: Record<string, unknown> | null;
  /**
   * The links a crawl read from the page (every link, before its filters): a recrawl answered 304
   * follows them without converting the page. Null or absent when none were read (a scrape's row).
   */
  links?: StoredLink[] | null;
  /**
   * How the markdown was made (history-variant.ts); '' when unknown (a row stored before it was
   * kept). A conditional visit reuses the copy only when its own variant is the same.
   */
  variant?: string;
  scrapedAt: Date;
}

/** A link of a tracked page, as the crawl's link extraction found it. */
export interface StoredLink {
  url: string;
  /** Its urlKey (the frontier's de-duplication key). */
  key: string;
  nofollow: boolean;
}

/** The `changeTracking` format's history; @wcs/db's PageHistoryRepository implements it. */
export interface ChangeHistoryStore {
  get(accountId: string, urlKey: string, tag: string): Promise<ChangeRecord | undefined>;
  /** The rows of many URL keys of one account and tag, by URL key (absent: no row). */
  getMany(accountId: string, urlKeys: string[], tag: string): Promise<Map<string, ChangeRecord>>;
  put(record: ChangeRecord): Promise<void>;
  /**
   * A 304 confirmed the copy stored at `was`: move its time to `next.scrapedAt` and take the 304's
   * validators (null: keep the stored ones). Markdown, metadata and links stay as they are.
   */
  touch(
    key: Pick<ChangeRecord, 'accountId' | 'urlKey' | 'tag'>,
    was: Date,
    next: { etag: string | null; lastModified: string | null; scrapedAt: Date },
  ): Promise<void>;
  /** `touch` of many rows in one statement (a recrawl's pages vouched for by the sitemap). */
  touchMany(touches: HistoryTouch[]): Promise<void>;
}

/** One `touch`: the row's key, the time it was stored at, and how it moves on. */
export type HistoryTouch = Parameters<ChangeHistoryStore['touch']>;
