import type { BatchesRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import { jobClock, type QueueProducer } from '@wcs/queues';
import { PeriodicTask } from '@wcs/runtime';

/**
 * Redis keeps nothing on disk in many deployments: after a Redis restart (or an enqueue that
 * failed after the batch was committed) items sit in PostgreSQL with no job. This loop finds
 * items unfinished for a while whose job is gone or finished, and enqueues them again under the
 * same job id (so two reconcilers can't create duplicates).
 */
export class BatchReconciler {
  private readonly loop: PeriodicTask;

  constructor(
    private readonly deps: { batches: BatchesRepository; producer: QueueProducer; logger: Logger },
    private readonly settings: { intervalMs: number; minAgeMs: number },
  ) {
    this.loop = new PeriodicTask(() => this.reconcileOnce(), {
      intervalMs: this.settings.intervalMs,
      onError: (err) => this.deps.logger.warn({ err }, 'batch reconcile failed'),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  async reconcileOnce(): Promise<number> {
    const stranded = await this.deps.batches.findUnfinishedItems(this.settings.minAgeMs, 1_000);
    const queue = this.deps.producer.queue('scrape-batch');
    let requeued = 0;
    for (const item of stranded) {
      const job = await queue.getJob(item.itemId);
      // The attempts' shared budget keeps counting from where the old job's clock started.
      let budgetStartedAt: number | undefined;
      if (job) {
        const state = await job.getState();
        if (state !== 'completed' && state !== 'failed' && state !== 'unknown') continue;
        budgetStartedAt = jobClock.safeParse(job.data).data?.budgetStartedAt;
        await job.remove().catch(() => undefined);
      }
      await this.deps.producer.enqueue(
        'scrape-batch',
        { ...item, ...(budgetStartedAt ? { budgetStartedAt } : {}) },
        { jobId: item.itemId },
      );
      requeued += 1;
    }
    if (requeued > 0) this.deps.logger.info({ requeued }, 're-enqueued stranded batch items');
    return requeued;
  }
}
