/**
 * How a scraped or crawled page becomes searchable (the embedded provider's corpus), off the
 * answer path: `add` hands the page over and returns, and the upsert (PostgreSQL's to_tsvector over
 * up to 1 M characters: ~200 ms for a 300-page PDF) runs behind it, so a scrape's caller does not
 * wait for its own index entry. Best effort by design, as before: a failure is logged, never
 * billed differently. `close` waits for what was handed over (SIGTERM loses nothing accepted);
 * a crash loses the entries not yet written, which the next scrape of the page writes again.
 */
import type { DocumentsRepository } from '@wcs/db';

/** What the indexer needs of a scraped page (the `DocumentData` shape of @wcs/queues). */
export interface IndexablePage {
  markdown?: string;
  metadata: { title?: unknown; description?: unknown; language?: unknown };
}

interface IndexerLogger {
  warn(obj: object, msg: string): void;
}

export interface SearchIndexerOptions {
  /** Characters of markdown waiting to be written before `add` waits for room (backpressure). */
  maxPendingChars?: number;
}

const DEFAULT_MAX_PENDING_CHARS = 32_000_000;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

export class SearchIndexer {
  private readonly queue: Array<{ accountId: string; url: string; page: IndexablePage }> = [];
  private pendingChars = 0;
  private running: Promise<void> | undefined;
  private readonly roomWaiters: Array<() => void> = [];
  private readonly maxPendingChars: number;

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly logger: IndexerLogger,
    opts: SearchIndexerOptions = {},
  ) {
    this.maxPendingChars = opts.maxPendingChars ?? DEFAULT_MAX_PENDING_CHARS;
  }

  /**
   * Queue `page` (keyed by `url`, the final URL after redirects) for the account's index. Returns
   * at once unless the backlog is full; pages without markdown (a `formats` without it) or with
   * neither text nor title are skipped, since search serves markdown.
   */
  async add(accountId: string, url: string, page: IndexablePage): Promise<void> {
    if (page.markdown === undefined || (!page.markdown.trim() && !str(page.metadata.title))) return;
    while (this.pendingChars > 0 && this.pendingChars + page.markdown.length > this.maxPendingChars)
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    this.queue.push({ accountId, url, page });
    this.pendingChars += page.markdown.length;
    this.running ??= this.drainQueue();
  }

  /** Resolves when everything handed over so far is written (or has failed and been logged). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** For shutdown: the same as `idle` (nothing is dropped). */
  close(): Promise<void> {
    return this.idle();
  }

  /**
   * Writes queued pages one at a time. `running` is cleared in the same tick the queue is found
   * empty (no await in between), so an `add` right after starts a new drain instead of leaving
   * its page behind.
   */
  private async drainQueue(): Promise<void> {
    for (;;) {
      const next = this.queue.shift();
      if (!next) {
        this.running = undefined;
        return;
      }
      await this.write(next.accountId, next.url, next.page);
    }
  }

  /** Never throws: a failed write is logged (best effort). */
  private async write(accountId: string, url: string, page: IndexablePage): Promise<void> {
    const m = page.metadata;
    try {
      await this.documents.upsert({
        accountId,
        url,
        title: str(m.title),
        description: str(m.description),
        markdown: page.markdown ?? '',
        language: str(m.language),
      });
    } catch (err) {
      this.logger.warn({ err, url }, 'indexing a page for search failed');
    }
    this.pendingChars -= page.markdown?.length ?? 0;
    for (const wake of this.roomWaiters.splice(0)) wake();
  }
}
