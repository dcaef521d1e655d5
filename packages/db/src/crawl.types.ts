import type { Prisma } from './generated/prisma/client';
import type { PageHistoryRecord } from './page-history.repository';
/** Only `done` and `failed` are terminal (spec §3; client libraries stop polling on them). */
export type CrawlStatus = 'pending' | 'processing' | 'done' | 'failed';
/**
 * `duplicate`: the row's page is one already crawled (reached under another URL); not counted.
 * `spare`: a link found past maxPages, never fetched unless a failed page's place frees up
 * (`failPage` queues it); not counted.
 */
export type CrawlPageStatus = 'queued' | 'running' | 'done' | 'failed' | 'skipped' | 'duplicate' | 'spare';
/**
 * Why a crawl ended: `completed` (frontier exhausted), `max_pages` (frontier capped at maxPages,
 * every accepted page finished), `out_of_credits`, `key_budget_exceeded` (the key that started the
 * crawl reached its daily or monthly credit limit), `cancelled`, `timeout` (crawl deadline), `error`.
 */
export type CrawlStopReason =
  | 'completed'
  | 'max_pages'
  | 'out_of_credits'
  | 'key_budget_exceeded'
  | 'cancelled'
  | 'timeout'
  | 'error';

/** What the caller asked for; stored as the crawl row's `options` (written by the gateway). */
export interface CrawlOptions {
  maxDepth: number;
  maxPages: number;
  includePaths: string[];
  excludePaths: string[];
  allowSubdomains: boolean;
  /** Links off the start URL's site are followed too (absent on crawls stored before it existed). */
  allowExternalLinks?: boolean;
  ignoreRobotsTxt: boolean;
  format: 'markdown' | 'html' | 'text' | 'json';
  onlyMainContent: boolean;
  delayMs: number;
  /**
   * `skip`: no sitemap seeds, only what links lead to (absent = `include`, the sitemap seeds too);
   * `only`: the start page and the sitemap's URLs, no link followed.
   */
  sitemap?: 'include' | 'skip' | 'only';
  /** De-duplicate URLs without their query string: one page per path (Firecrawl's option). */
  ignoreQueryParameters?: boolean;
  /**
   * Tracked recrawls: a sitemap page whose lastmod is not after the account's tracked copy is not
   * fetched (the gateway allows it only with the changeTracking format and a sitemap).
   */
  trustSitemapLastmod?: boolean;
  /** `scrapeOptions`' plain page options, parsed by the worker with @wcs/queues' pageOptions. */
  page?: Prisma.InputJsonObject;
}

export interface CrawlView {
  crawlId: string;
  accountId: string;
  url: string;
  status: CrawlStatus;
  options: CrawlOptions;
  /** only meaningful once terminal (a capped frontier records `max_pages` early) */
  stopReason: CrawlStopReason | null;
  error: string | null;
  /** pages accepted into the frontier (≤ maxPages + failed: a failed page gives its room back, up to maxPages of them) */
  discovered: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  robotsTxt: string | null;
  crawlDelayMs: number | null;
  createdAt: Date;
  finishedAt: Date | null;
  /** `scrapeOptions`' headers and actions; null once the crawl ended. Never shown to callers. */
  pageSecrets: unknown;
}

export interface CrawlPageView {
  pageId: string;
  url: string;
  depth: number;
  status: CrawlPageStatus;
  statusCode: number | null;
  /** { markdown, metadata, html?/text?/json? } when done */
  result: unknown | null;
  error: string | null;
  errorCode: string | null;
  finishedAt: Date | null;
}

/** A URL offered to the frontier: what to fetch, its de-duplication key (`urlKey`) and depth. */
export interface FrontierCandidate {
  url: string;
  key: string;
  depth: number;
  /** A sitemap seed's `<lastmod>` (its latest instant); links have none. */
  lastmod?: Date;
}

/** A frontier row that was just inserted and needs its queue job. */
export interface FrontierPage {
  pageId: string;
  url: string;
  depth: number;
}

/** The page's own part of a task, returned by startPageOf(). */
export interface CrawlPageStart {
  pageId: string;
  crawlId: string;
  url: string;
  urlKey: string;
  depth: number;
  attempts: number;
  pageStatus: CrawlPageStatus;
  crawlStatus: CrawlStatus;
  /** The URL of a done page that already ended at this row's URL (a redirect). */
  duplicateOf?: string | null;
  /** The sitemap's `<lastmod>` for this page when it was seeded from one (its latest instant). */
  sitemapLastmod?: Date | null;
  /** When the row joined the frontier (a sitemap seed shares its start page's; `seededAt`). */
  createdAt?: Date;
}

/** Whose change history a tracked crawl's page start reads beside the page (`startPageWithHistory`). */
export interface HistoryOfStart {
  accountId: string;
  /** The history's tag ('' without one). */
  tag: string;
}

/** A started page with its account's change-history row under its frontier key (null: none). */
export interface CrawlPageStartWithHistory extends CrawlPageStart {
  history: PageHistoryRecord | null;
}

/** The crawl's part of a task: fixed from the crawl's start (`processing`) to its end. */
export interface CrawlOfTask {
  accountId: string;
  crawlUrl: string;
  options: CrawlOptions;
  robotsTxt: string | null;
  crawlDelayMs: number | null;
  /** `scrapeOptions`' headers and actions (null when none, or once the crawl ended). */
  pageSecrets: unknown;
  /**
   * When the crawl was created: before its sitemap was read, so the latest time its lastmod values
   * vouch for a page (trustSitemapLastmod). Absent from tasks built without it.
   */
  crawlCreatedAt?: Date;
}

/** What a worker needs to fetch one page, returned by startPage(). */
export type CrawlPageTask = CrawlPageStart & CrawlOfTask;

export type CompletePageOutcome =
  | {
      outcome: 'done';
      newPages: FrontierPage[];
      /** Some new link was left out for lack of room (maxPages); false = every link sent is in the frontier now. */
      capped: boolean;
      crawlFinished: boolean;
    }
  /** the page ended where a done page of the crawl already is (a redirect): not counted, not billed */
  | { outcome: 'duplicate'; crawlFinished: boolean }
  /** the page or its crawl had already finished: nothing recorded, nothing billed */
  | { outcome: 'skipped' }
  /** the charge failed: the crawl stopped; these pages lost their jobs' purpose */
  | { outcome: 'out_of_credits'; reason: 'out_of_credits' | 'key_budget_exceeded'; skippedPageIds: string[] };
