import type { JobWebhooksRepository } from '@wcs/db';
import type { Logger } from '@wcs/logger';
import type { QueueProducer } from '@wcs/queues';
import { PeriodicTask } from '@wcs/runtime';

const BATCH = 1_000;
const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * The outbox relay of job webhooks, in every dispatcher replica (job id = event id, so concurrent
 * passes add nothing twice):
 * - events no dispatch job was added for (the gateway writes `started` and cancel's `failed`
 *   events without enqueueing; a worker's enqueue after its commit may have failed) get one;
 * - pending events untouched for `staleMs` whose job is gone (Redis restarted empty) or finished
 *   get a new one; those whose job is alive are touched and checked again later;
 * - headers of ended jobs with nothing left to send are cleared (safety net of the dispatcher's own
 *   clearing, for a race between a job's end and its last delivery).
 */
export class JobWebhookRelay {
  private readonly loop: PeriodicTask;

  constructor(
    private readonly deps: { webhooks: JobWebhooksRepository; producer: QueueProducer; logger: Logger },
    private readonly settings: { intervalMs: number; staleMs: number },
  ) {
    this.loop = new PeriodicTask(() => this.relayOnce(), {
      intervalMs: settings.intervalMs,
      onError: (err) => this.deps.logger.warn({ err }, 'job webhook relay failed'),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  async relayOnce(): Promise<{ added: number; requeued: number; cleared: number }> {
    const { webhooks, producer, logger } = this.deps;
    const fresh = await webhooks.unenqueued(BATCH);
    if (fresh.length > 0) {
      await producer.enqueueBulk(
        'job-webhook',
        fresh.map((eventId) => ({ payload: { eventId }, opts: { jobId: eventId } })),
      );
      await webhooks.markEnqueued(fresh);
    }
    const queue = producer.queue('job-webhook');
    const alive: string[] = [];
    let requeued = 0;
    for (const eventId of await webhooks.stale(this.settings.staleMs, BATCH)) {
      const state = await queue.getJobState(eventId);
      if (LIVE_STATES.has(state)) {
        alive.push(eventId);
        continue;
      }
      // A finished job keeps its id for a while; it must go before the same id can be added again.
      if (state === 'completed' || state === 'failed') await queue.remove(eventId).catch(() => 0);
      await producer.enqueue('job-webhook', { eventId }, { jobId: eventId });
      alive.push(eventId);
      requeued += 1;
    }
    await webhooks.touch(alive);
    const cleared = await webhooks.clearSpentHeaders();
    if (fresh.length > 0 || requeued > 0) {
      logger.debug({ added: fresh.length, requeued }, 'job webhook relay');
    }
    return { added: fresh.length, requeued, cleared };
  }
}
