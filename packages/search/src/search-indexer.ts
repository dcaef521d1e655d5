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
  /**
   * How long the first page of a batch waits for others before the batch is written (default
   * 100 ms; 0 = at once). One statement and one commit per batch instead of per page or two: a
   * crawl's pages arrive a few milliseconds apart, and each statement's own cost (the round trip,
   * the plan, the commit) was about half of what indexing a small page cost PostgreSQL.
   */
  lingerMs?: number;
}

const DEFAULT_MAX_PENDING_CHARS = 32_000_000;
const DEFAULT_LINGER_MS = 100;
/** Pages per statement: the backlog that built up during one write goes out in the next. */
const MAX_BATCH_PAGES = 64;
/** Characters of markdown per statement, so one statement stays a few MB. */
const MAX_BATCH_CHARS = 4_000_000;

interface QueuedPage {
  accountId: string;
  url: string;
  page: IndexablePage;
  /** performance.now() when handed over. */
  queuedAt: number;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

export class SearchIndexer {
  private readonly queue: QueuedPage[] = [];
  private pendingChars = 0;
  private running: Promise<void> | undefined;
  private readonly roomWaiters: Array<() => void> = [];
  private readonly maxPendingChars: number;
  private readonly lingerMs: number;
  /** Ends the current linger early (a full batch, or `idle`/`close` asked for everything). */
  private cutLinger: (() => void) | undefined;

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly logger: IndexerLogger,
    opts: SearchIndexerOptions = {},
  ) {
    this.maxPendingChars = opts.maxPendingChars ?? DEFAULT_MAX_PENDING_CHARS;
    this.lingerMs = opts.lingerMs ?? DEFAULT_LINGER_MS;
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
    this.queue.push({ accountId, url, page, queuedAt: performance.now() });
    this.pendingChars += page.markdown.length;
    if (this.queue.length >= MAX_BATCH_PAGES) this.cutLinger?.();
    this.running ??= this.drainQueue();
  }

  /**
   * Resolves when everything handed over so far is written (or has failed and been logged); what
   * is lingering is written at once.
   */
  async idle(): Promise<void> {
    while (this.running) {
      this.cutLinger?.();
      await this.running;
    }
  }

  /** For shutdown: the same as `idle` (nothing is dropped). */
  close(): Promise<void> {
    return this.idle();
  }

  /**
   * Writes what is queued, in batches: a batch's first page waits up to `lingerMs` for others
   * (less once a batch is full), and whatever arrived while one statement ran goes out together in
   * the next. `running` is cleared in the same tick the queue is found empty (no await in between),
   * so an `add` right after starts a new drain instead of leaving its page behind.
   */
  private async drainQueue(): Promise<void> {
    for (;;) {
      await this.linger();
      const batch = this.takeBatch();
      if (batch.length === 0) {
        this.running = undefined;
        return;
      }
      await this.write(batch);
    }
  }

  /** Until the oldest queued page has waited `lingerMs`, or a batch is full, or `idle` asks. */
  private async linger(): Promise<void> {
    const oldest = this.queue[0];
    if (!oldest || this.queue.length >= MAX_BATCH_PAGES) return;
    const waitMs = oldest.queuedAt + this.lingerMs - performance.now();
    if (waitMs <= 0) return;
    await new Promise<void>((resolve) => {
      // Unref'd: a lingering page does not keep a process alive (`close` writes it at once).
      const timer = setTimeout(() => this.cutLinger?.(), waitMs).unref();
      this.cutLinger = () => {
        clearTimeout(timer);
        this.cutLinger = undefined;
        resolve();
      };
    });
  }

  private takeBatch(): QueuedPage[] {
    const batch: QueuedPage[] = [];
    let chars = 0;
    while (this.queue.length > 0 && batch.length < MAX_BATCH_PAGES) {
      const size = this.queue[0]?.page.markdown?.length ?? 0;
      if (batch.length > 0 && chars + size > MAX_BATCH_CHARS) break;
      const next = this.queue.shift();
      if (!next) break;
      batch.push(next);
      chars += size;
    }
    return batch;
  }

  /** Never throws: a page that could not be written is logged (best effort). */
  private async write(batch: QueuedPage[]): Promise<void> {
    const docs = batch.map(({ accountId, url, page }) => ({
      accountId,
      url,
      title: str(page.metadata.title),
      description: str(page.metadata.description),
      markdown: page.markdown ?? '',
      language: str(page.metadata.language),
    }));
    try {
      for (const { doc, err } of await this.documents.upsertMany(docs))
        this.logger.warn({ err, url: doc.url }, 'indexing a page for search failed');
    } catch (err) {
      this.logger.warn({ err, pages: batch.length }, 'indexing pages for search failed');
    }
    for (const q of batch) this.pendingChars -= q.page.markdown?.length ?? 0;
    for (const wake of this.roomWaiters.splice(0)) wake();
  }
}
