import type { CrawlRecoveryRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { QueueProducer } from '@wcs/queues';
import { PeriodicTask } from '@wcs/runtime';
import { enqueuePages, feedWindow, type QueueWindow, removePageJobs } from './page-jobs';

const BATCH = 1_000;
const STATE_CHUNK = 100;
const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Every crawl reaches `done` or `failed`, whatever happened to Redis or a worker:
 * - crawls past CRAWL_DEADLINE_MS are failed (`timeout`), their queued jobs removed;
 * - claimed frontier rows unfinished for a while whose job is gone (Redis restarted empty, an
 *   enqueue that failed after its commit) are enqueued again under the same job id;
 * - running crawls with waiting rows but none in their queue window get their window claimed;
 * - `pending` crawls whose start job is gone are started again;
 * - running crawls with nothing left to do are closed.
 * Runs in every replica; job ids make concurrent passes harmless.
 */
export class CrawlReconciler {
  private readonly loop: PeriodicTask;

  constructor(
    private readonly deps: {
      recovery: CrawlRecoveryRepository;
      queueWindow: QueueWindow;
      producer: QueueProducer;
      logger: Logger;
    },
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
    refilled: number;
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
    // A large crawl's waiting pages fill the batch on every pass: their states are asked in
    // chunks (one pipelined round trip each), not one round trip per page.
    const states: string[] = [];
    for (let i = 0; i < stranded.length; i += STATE_CHUNK) {
      const chunk = stranded.slice(i, i + STATE_CHUNK);
      states.push(...(await Promise.all(chunk.map((p) => pageQueue.getJobState(p.pageId)))));
    }
    for (const [i, p] of stranded.entries()) {
      const state = states[i] ?? 'unknown';
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

    let refilled = 0;
    for (const { crawlId } of await recovery.findStarvedCrawls(this.settings.minAgeMs, 100)) {
      refilled += await feedWindow(this.deps.queueWindow, crawlId);
    }

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
    if (overdue.length || requeuedPages || refilled || restarted || closed) {
      logger.info(
        { timedOut: overdue.length, requeuedPages, refilled, restarted, closed },
        'crawl reconcile',
      );
    }
    return { timedOut: overdue.length, requeuedPages, refilled, restarted, closed };
  }
}
