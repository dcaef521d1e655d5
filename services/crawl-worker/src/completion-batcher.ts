import type { CompletePageOutcome, CrawlsRepository } from '@wcs/db';
import { GroupCommit } from './group-commit';

type Completion = Parameters<CrawlsRepository['completePage']>[2] & { pageId: string };

/** Most pages handed over in one call (their results travel in one statement). */
const MAX_BATCH = 32;

/**
 * Page completions grouped per crawl (group-commit.ts): a page whose crawl has no completion under
 * way is completed at once (`completePage`); the pages of that crawl that finish meanwhile are then
 * completed together (`completeEach`: one statement, one lock of the crawl row, one commit) instead
 * of queueing for the crawl row's lock one behind the other.
 */
export class CompletionBatcher {
  private readonly group: GroupCommit<Completion, CompletePageOutcome>;

  constructor(crawls: Pick<CrawlsRepository, 'completePage' | 'completeEach'>) {
    this.group = new GroupCommit({
      one: (crawlId, { pageId, ...c }) => crawls.completePage(crawlId, pageId, c),
      many: (crawlId, pages) => crawls.completeEach(crawlId, pages),
      maxBatch: MAX_BATCH,
    });
  }

  complete(
    crawlId: string,
    pageId: string,
    completion: Parameters<CrawlsRepository['completePage']>[2],
  ): Promise<CompletePageOutcome> {
    return this.group.submit(crawlId, { ...completion, pageId });
  }
}
