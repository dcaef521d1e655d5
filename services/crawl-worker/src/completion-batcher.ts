import type { CompletePageOutcome, CrawlsRepository } from '@wcs/db';

type Completion = Parameters<CrawlsRepository['completePage']>[2];

interface Waiting {
  pageId: string;
  completion: Completion;
  resolve: (outcome: CompletePageOutcome) => void;
  reject: (err: unknown) => void;
}

/** Most pages handed over in one call (their results travel in one statement). */
const MAX_BATCH = 32;

/**
 * A group commit of page completions, per crawl: a page whose crawl has no completion under way is
 * completed at once, alone (`completePage`); pages of that crawl that finish meanwhile wait and are
 * then completed together (`completeEach`: one statement, one lock of the crawl row, one commit),
 * instead of queueing for the crawl row's lock one behind the other, each with its own round trip.
 * Nothing waits when there is nothing to wait for. A batch that fails is completed again page by
 * page, so one page's error is only that page's.
 */
export class CompletionBatcher {
  private readonly crawls = new Map<string, Waiting[]>();

  constructor(private readonly crawlsRepo: Pick<CrawlsRepository, 'completePage' | 'completeEach'>) {}

  complete(crawlId: string, pageId: string, completion: Completion): Promise<CompletePageOutcome> {
    return new Promise((resolve, reject) => {
      const waiting = this.crawls.get(crawlId);
      const entry = { pageId, completion, resolve, reject };
      if (waiting) {
        waiting.push(entry);
        return;
      }
      this.crawls.set(crawlId, []);
      void this.run(crawlId, [entry]);
    });
  }

  /** Complete `batch`, then whatever of the crawl arrived meanwhile, until none is left. */
  private async run(crawlId: string, batch: Waiting[]): Promise<void> {
    for (let next = batch; next.length > 0; ) {
      await this.completeBatch(crawlId, next);
      const waiting = this.crawls.get(crawlId) ?? [];
      next = waiting.splice(0, MAX_BATCH);
    }
    this.crawls.delete(crawlId);
  }

  private async completeBatch(crawlId: string, batch: Waiting[]): Promise<void> {
    if (batch.length > 1) {
      try {
        const outcomes = await this.crawlsRepo.completeEach(
          crawlId,
          batch.map((w) => ({ ...w.completion, pageId: w.pageId })),
        );
        batch.forEach((w, i) => {
          const outcome = outcomes[i];
          if (outcome) w.resolve(outcome);
          else w.reject(new Error(`no completion outcome for page ${w.pageId}`));
        });
        return;
      } catch {
        // Rolled back as a whole: each page again on its own, below.
      }
    }
    for (const w of batch) {
      await this.crawlsRepo.completePage(crawlId, w.pageId, w.completion).then(w.resolve, w.reject);
    }
  }
}
