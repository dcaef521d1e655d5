import type { CrawlRecoveryRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { QueueProducer } from '@wcs/queues';
import { PeriodicTask } from '@wcs/runtime';
import { enqueuePages, removePageJobs } from './page-jobs';

const BATCH = 1_000;
const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Every crawl reaches `done` or `failed`, whatever happened to Redis or a worker:
 * - crawls past CRAWL_DEADLINE_MS are failed (`timeout`), their queued jobs removed;
 * - frontier rows unfinished for a while whose job is gone (Redis restarted empty, an enqueue that
 *   failed after its commit) are enqueued again under the same job id;
 * - `pending` crawls whose start job is gone are started again;
 * - running crawls with nothing left to do are closed.
 * Runs in every replica; job ids make concurrent passes harmless.
 */
export class CrawlReconciler {
  private readonly loop: PeriodicTask;

  constructor(
    private readonly deps: { recovery: CrawlRecoveryRepository; producer: QueueProducer; logger: Logger },
    private readonly settings: { intervalMs: number; minAgeMs: number; deadlineMs: number },
  ) {
    this.loop = new PeriodicTask(() => this.reconcileOnce(), {
      intervalMs: this.settings.intervalMs,
      onError: (err) => this.deps.logger.warn({ err }, 'crawl reconcile failed'),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  async reconcileOnce(): Promise<{
    timedOut: number;
    requeuedPages: number;
    restarted: number;
    closed: number;
  }> {
    const { recovery, producer, logger } = this.deps;
    const overdue = await recovery.failOverdueCrawls(this.settings.deadlineMs, 100);
    for (const c of overdue) await removePageJobs(producer, c.skippedPageIds);

    const pageQueue = producer.queue('crawl-page');
    const stranded = await recovery.findStrandedPages(this.settings.minAgeMs, BATCH);
    const alive: string[] = [];
    let requeuedPages = 0;
    for (const p of stranded) {
      const state = await pageQueue.getJobState(p.pageId);
      if (LIVE_STATES.has(state)) {
        alive.push(p.pageId);
        continue;
      }
      // A finished job keeps its id for a while; it must go before the same id can be added again.
      if (state === 'completed' || state === 'failed') await pageQueue.remove(p.pageId).catch(() => 0);
      await enqueuePages(producer, p.crawlId, [{ pageId: p.pageId, url: '', depth: p.depth }]);
      requeuedPages += 1;
    }
    await recovery.touchPages(alive);

    const startQueue = producer.queue('crawl');
    let restarted = 0;
    for (const { crawlId } of await recovery.findStalePendingCrawls(this.settings.minAgeMs, 100)) {
      const state = await startQueue.getJobState(crawlId);
      if (LIVE_STATES.has(state)) continue;
      if (state === 'completed' || state === 'failed') await startQueue.remove(crawlId).catch(() => 0);
      await producer.enqueue('crawl', { crawlId }, { jobId: crawlId });
      restarted += 1;
    }

    const closed = await recovery.closeIdleCrawls();
    if (overdue.length || requeuedPages || restarted || closed) {
      logger.info({ timedOut: overdue.length, requeuedPages, restarted, closed }, 'crawl reconcile');
    }
    return { timedOut: overdue.length, requeuedPages, restarted, closed };
  }
}
