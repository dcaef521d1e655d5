/**
 * How a scraped or crawled page becomes searchable (the embedded provider's corpus), off the
 * answer path: `add` hands the page over and returns, and the upsert (PostgreSQL's to_tsvector over
 * up to 1 M characters: ~200 ms for a 300-page PDF) runs behind it, so a scrape's caller does not
 * wait for its own index entry. Best effort by design, as before: a failure is logged, never
 * billed differently. `close` waits for what was handed over (SIGTERM loses nothing accepted);
 * a crash loses the entries not yet written, which the next scrape of the page writes again.
 *
 * Read-your-writes: with `pending`, each page is announced (`announce`: a Redis round trip, or a
 * share of one made for the account's pages a moment before: shared-marks.ts) before its caller
 * reports it — the scrape answers, the batch item or crawl page is marked done — and its mark goes
 * once the page is written; the embedded search waits for the marks of its account
 * (pending-index.ts). The write itself stays behind the answer.
 */
import type { DocumentsRepository } from '@wcs/db';
import type { PendingIndexWriter, PendingMark } from './pending-index';
import { SharedMarks } from './shared-marks';

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
  /** Where pages are announced until written (read-your-writes for the embedded search). */
  pending?: PendingIndexWriter;
  /**
   * Pages of an account announced within this many ms of each other share one mark (shared-marks.ts;
   * default 50, 0 = a mark per page).
   */
  shareMarksMs?: number;
}

/** A page announced to searches but not handed over yet: `write` it, or `drop` it (nothing to write). */
export interface AnnouncedPage {
  write(): Promise<void>;
  drop(): Promise<void>;
}

/**
 * An announcement made before its page exists (see `reserve`): `fill` makes it the page's (undefined,
 * and taken back, when the page is not indexed), or `drop` takes it back (no page after all).
 */
export interface ReservedAnnouncement {
  fill(url: string, page: IndexablePage): Promise<AnnouncedPage | undefined>;
  drop(): Promise<void>;
}

const DEFAULT_MAX_PENDING_CHARS = 32_000_000;
const DEFAULT_LINGER_MS = 100;
const DEFAULT_SHARE_MARKS_MS = 50;
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
  /** Its announcement, removed once the page is written (or has failed). */
  mark: PendingMark | undefined;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** Search serves markdown: a page without it, or with neither text nor title, is not indexed. */
const indexable = (page: IndexablePage): boolean =>
  page.markdown !== undefined && (page.markdown.trim() !== '' || str(page.metadata.title) !== null);

export class SearchIndexer {
  private readonly queue: QueuedPage[] = [];
  private pendingChars = 0;
  private running: Promise<void> | undefined;
  private readonly roomWaiters: Array<() => void> = [];
  private readonly maxPendingChars: number;
  private readonly lingerMs: number;
  private readonly pending: PendingIndexWriter | undefined;
  private readonly marks: SharedMarks | undefined;
  /** Ends the current linger early (a full batch, or `idle`/`close` asked for everything). */
  private cutLinger: (() => void) | undefined;

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly logger: IndexerLogger,
    opts: SearchIndexerOptions = {},
  ) {
    this.maxPendingChars = opts.maxPendingChars ?? DEFAULT_MAX_PENDING_CHARS;
    this.lingerMs = opts.lingerMs ?? DEFAULT_LINGER_MS;
    this.pending = opts.pending;
    this.marks = opts.pending
      ? new SharedMarks(opts.pending, opts.shareMarksMs ?? DEFAULT_SHARE_MARKS_MS, (err) =>
          this.logger.warn({ err }, 'announcing a page to search failed'),
        )
      : undefined;
  }

  /**
   * Queue `page` (keyed by `url`, the final URL after redirects) for the account's index: `announce`
   * then `write`. Returns once the page is announced, and waits only while the backlog is full.
   */
  async add(accountId: string, url: string, page: IndexablePage): Promise<void> {
    await (await this.announce(accountId, url, page))?.write();
  }

  /**
   * Announce `page` to the account's searches before it is reported anywhere (a search that starts
   * later waits for it); `write` hands it over, `drop` takes the announcement back (the caller did
   * not report it after all). Undefined for pages that are not indexed: without markdown (a
   * `formats` without it) or with neither text nor title, since search serves markdown. A failed
   * announcement is logged and the page is still written (best effort, as the index itself).
   */
  async announce(accountId: string, url: string, page: IndexablePage): Promise<AnnouncedPage | undefined> {
    if (!indexable(page)) return undefined;
    return this.announced(accountId, url, page, await this.mark(accountId));
  }

  /**
   * `announce` for a page still to be fetched and converted: the announcement's round trip starts
   * now and runs beside that work instead of after it (a scrape answers one round trip sooner).
   * Searches of the account started meanwhile wait for it too, until it is filled and written or
   * dropped. Resolving `fill` means the same as `announce` resolving: announced, ready to write.
   */
  reserve(accountId: string): ReservedAnnouncement {
    const marked = this.mark(accountId);
    let used = false;
    const release = async () => {
      const mark = await marked;
      if (mark) await this.unmark([mark]);
    };
    return {
      fill: async (url, page) => {
        if (used) throw new Error('reserved announcement used twice');
        used = true;
        if (!indexable(page)) {
          await release();
          return undefined;
        }
        return this.announced(accountId, url, page, await marked);
      },
      drop: async () => {
        if (used) return;
        used = true;
        await release();
      },
    };
  }

  /** The page's mark in Redis (shared-marks.ts); a failure is logged and the page goes unannounced (best effort). */
  private async mark(accountId: string): Promise<PendingMark | undefined> {
    return this.marks?.take(accountId);
  }

  private announced(
    accountId: string,
    url: string,
    page: IndexablePage,
    mark: PendingMark | undefined,
  ): AnnouncedPage {
    const markdown = page.markdown ?? '';
    let settled = false;
    return {
      write: async () => {
        if (settled) return;
        settled = true;
        while (this.pendingChars > 0 && this.pendingChars + markdown.length > this.maxPendingChars)
          await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
        this.queue.push({ accountId, url, page, queuedAt: performance.now(), mark });
        this.pendingChars += markdown.length;
        if (this.queue.length >= MAX_BATCH_PAGES) this.cutLinger?.();
        this.running ??= this.drainQueue();
      },
      drop: async () => {
        if (settled) return;
        settled = true;
        if (mark) await this.unmark([mark]);
      },
    };
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
    // After the commit (a search that sees no mark sees the page); a failed page releases its
    // searches too, which then run without it rather than wait for their bound.
    await this.unmark(batch.flatMap((q) => (q.mark ? [q.mark] : [])));
  }

  /** Never throws: a mark that cannot be removed is ignored by searches once stale. */
  private async unmark(marks: PendingMark[]): Promise<void> {
    if (!this.pending || !this.marks || marks.length === 0) return;
    // Only the marks no other page holds any more.
    const last = this.marks.release(marks);
    if (last.length === 0) return;
    await this.pending.remove(last).catch((err: unknown) => {
      this.logger.warn({ err, pages: marks.length }, 'releasing pages announced to search failed');
    });
  }
}
