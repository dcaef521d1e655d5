import type { CrawlChangesRepository, CrawlsRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { QueueProducer } from '@wcs/queues';
import type { Renderer } from '@wcs/renderer';
import type { ContentPool, PageModel } from '@wcs/scraper';
import type { SearchIndexer } from '@wcs/search';
import type { CompletionBatcher } from './completion-batcher';
import type { CrawlContexts } from './crawl-contexts';
import type { PageCacheRows } from './deferred-page-cache';
import type { FrontierMemo } from './frontier-memo';
import type { HostSlots } from './host-slots';
import type { QueueWindow } from './page-jobs';

export interface CrawlPageSettings {
  pageTimeoutMs: number;
  maxStarts: number;
  maxLinksPerPage: number;
}

export interface CrawlPageDeps {
  crawls: CrawlsRepository;
  /** Completes the pages of a crawl that finish together in one call (without it: one call a page). */
  completions?: CompletionBatcher;
  /** Change tracking: whether a page came from the sitemap only (`visibility: hidden`), and the sitemap seeds a trusted lastmod may vouch for. */
  changes?: Pick<CrawlChangesRepository, 'seededAt' | 'vouchableSeeds'>;
  /** The embedded search index: every crawled page is announced before it is listed, written after. */
  indexer?: SearchIndexer;
  producer: QueueProducer;
  renderer: Renderer;
  /** Converts the pages and reads their links (created and closed by the worker's wiring). */
  pool: ContentPool;
  /** The extract model: `scrapeOptions`' summary and changeTracking json (absent: MODEL_NOT_CONFIGURED). */
  model?: PageModel;
  slots: HostSlots;
  /** Each crawl's options, secrets and link rules, prepared once (the page cache and screenshot store in them). */
  contexts: CrawlContexts;
  /**
   * Makes the fetched page's page-cache row, which its completion writes in its own statement
   * (deferred-page-cache.ts); without it each fetched page writes its copy on its own.
   */
  pageCacheRows?: PageCacheRows;
  /** Links each crawl has already: not sent with every page again. */
  frontier?: FrontierMemo;
  /** Which frontier rows have jobs: at most its size per crawl (the rest wait in PostgreSQL). */
  queueWindow: QueueWindow;
  logger: Logger;
}

export type PageResult = { pageId: string; status: 'done' | 'failed' | 'skipped' | 'out_of_credits' };
