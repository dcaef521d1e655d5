import type { CrawlWindowRepository, FrontierPage } from '@wcs/db';
import type { QueueProducer } from '@wcs/queues';

import type { RefillPacer } from './refill-pacer';

/** What claiming a crawl's queue window needs: the rows' store, the queue and the window's size. */
export interface QueueWindow {
  window: CrawlWindowRepository;
  producer: QueueProducer;
  /** Claimed, unfinished rows a crawl may have at once (CRAWL_QUEUE_WINDOW). */
  size: number;
  /** How often a finished page tops the window up (refill-pacer.ts); without it, every time. */
  pacer?: RefillPacer;
}

/**
 * Top up the crawl's queue window: claim waiting frontier rows, shallowest first, and add their
 * jobs. Called after every page that finished or found pages, so the window refills as it drains.
 * A claim committed whose jobs did not get added is the reconciler's (stranded pages).
 */
export async function feedWindow(w: QueueWindow, crawlId: string): Promise<number> {
  const { claimed, wanted } = await w.window.topUp(crawlId, w.size);
  w.pacer?.toppedUp(crawlId, claimed.length, wanted);
  await enqueuePages(w.producer, crawlId, claimed);
  return claimed.length;
}

/**
 * One `crawl-page` job per frontier row, jobId = page id (a second add of a live job is a no-op, so
 * the start job, page jobs and reconcilers on every replica can all enqueue safely). Priority
 * depth + 1: BullMQ serves lower numbers first, so the crawl goes breadth first.
 */
export async function enqueuePages(
  producer: QueueProducer,
  crawlId: string,
  pages: FrontierPage[],
): Promise<void> {
  if (pages.length === 0) return;
  await producer.enqueueBulk(
    'crawl-page',
    pages.map((p) => ({
      payload: { crawlId, pageId: p.pageId },
      opts: { jobId: p.pageId, priority: Math.min(p.depth + 1, 2_000_000) },
    })),
  );
}

/** Remove the queued jobs of pages that will never run (cancel, out of credits, deadline). Best effort. */
export async function removePageJobs(producer: QueueProducer, pageIds: string[]): Promise<void> {
  const queue = producer.queue('crawl-page');
  for (let i = 0; i < pageIds.length; i += 200) {
    const chunk = pageIds.slice(i, i + 200);
    await Promise.all(chunk.map((id) => queue.remove(id).catch(() => 0)));
  }
}
