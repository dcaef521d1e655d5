import type { FrontierPage } from '@wcs/db';
import type { QueueProducer } from '@wcs/queues';

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
