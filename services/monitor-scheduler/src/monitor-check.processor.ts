import { createHash } from 'node:crypto';
import { cleanMarkdownForHash } from '@wcs/content';
import type { CheckOutcome, MonitorsRepository } from '@wcs/db';
import { toServiceError } from '@wcs/errors';
import type { Logger } from '@wcs/logger';
import {
  type Job,
  type JobContext,
  type PayloadOf,
  pageOptions,
  pageSecrets,
  type QueueProducer,
  remainingMs,
} from '@wcs/queues';
import type { Renderer } from '@wcs/renderer';
import { type ContentPool, scrapeDocument } from '@wcs/scraper';
import { z } from 'zod';
import type { MonitorSchedules } from './monitor-schedules';

export const SNAPSHOT_CHARS = 500;

/** A monitor's stored page options: the plain ones plus its `waitFor` (written by the gateway). */
const monitorPageOptions = pageOptions.extend({ waitFor: z.number().int().min(0).max(30_000).optional() });

export interface MonitorCheckDeps {
  monitors: MonitorsRepository;
  schedules: MonitorSchedules;
  producer: QueueProducer;
  renderer: Renderer;
  /** Converts the checked pages (created and closed by the scheduler's wiring). */
  pool: ContentPool;
  logger: Logger;
}

/** A check's id, derived from the job id so a re-delivered job charges and records once. */
export function checkIdFor(jobId: string): string {
  const h = createHash('sha256').update(jobId).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function contentHash(markdown: string): string {
  return createHash('sha256').update(cleanMarkdownForHash(markdown)).digest('hex');
}

type Result = CheckOutcome | { kind: 'failed'; code: string };

/**
 * One monitor check: skip unless active; fetch the main content; hash the normalised cleaned
 * markdown; record the check (1 credit, in the same transaction); on a change enqueue one webhook.
 * A failed fetch is recorded and not billed. The baseline job (at creation) also installs the
 * monitor's job scheduler, so the gateway never needs the interval scale.
 */
export function monitorCheckProcessor(deps: MonitorCheckDeps, opts: { timeoutMs: number }) {
  return async (payload: PayloadOf<'monitor-check'>, job: Job, ctx?: JobContext): Promise<Result> => {
    const m = await deps.monitors.byId(payload.monitorId);
    if (!m || m.status === 'cancelled') {
      await deps.schedules.remove(payload.monitorId).catch(() => undefined);
      return { kind: 'skipped', status: 'cancelled' };
    }
    // The baseline installs the scheduler of an active monitor; the reconciler owns the others.
    if (job.id?.startsWith('baseline-') && m.status === 'active') await deps.schedules.upsert(m);
    if (m.status !== 'active') {
      // A user's pause keeps the scheduler: keep its next fire current, so a resume announces it.
      if (m.pausedBy === 'user') await deps.monitors.setNextCheck(m.id, deps.schedules.nextFire(m));
      return { kind: 'skipped', status: m.status };
    }
    const next = deps.schedules.nextFire(m);
    if (!(await deps.monitors.hasCredit(m.accountId))) {
      await deps.monitors.pause(m.id, 'Insufficient credits: a check costs 1 credit');
      deps.logger.info({ monitorId: m.id }, 'monitor paused: out of credits');
      return { kind: 'paused' };
    }
    let markdown: string;
    // The check's time is when its fetch began: overlapping checks are ordered by it.
    const observedAt = new Date();
    try {
      const { waitFor, ...page } = monitorPageOptions.nullable().parse(m.pageOptions) ?? {};
      const secrets = pageSecrets.nullable().parse(await deps.monitors.pageSecretsOf(m.id));
      const doc = await scrapeDocument(deps, {
        url: m.url,
        format: 'markdown',
        onlyMainContent: true,
        page,
        accountId: m.accountId,
        ...(waitFor ? { waitForMs: waitFor } : {}),
        ...(secrets ? { secrets } : {}),
        // Within the job's budget; its signal (deadline, cancel, shutdown) stops the fetch.
        timeoutMs: Math.max(1, Math.min(opts.timeoutMs, ctx ? remainingMs(ctx) : opts.timeoutMs)),
        ...(ctx ? { signal: ctx.signal } : {}),
      });
      markdown = doc.data.markdown ?? '';
    } catch (err) {
      const se = toServiceError(err);
      await deps.monitors.recordFailedCheck(m.id, se.message, se.code, next);
      return { kind: 'failed', code: se.code };
    }
    const outcome = await deps.monitors.recordCheck({
      monitorId: m.id,
      checkId: checkIdFor(job.id ?? `${m.id}:${Date.now()}`),
      hash: contentHash(markdown),
      snapshot: markdown.trim().slice(0, SNAPSHOT_CHARS),
      nextCheckAt: next,
      observedAt,
    });
    if (outcome.kind === 'changed' && outcome.webhookUrl) {
      // The change is committed; if Redis refuses the job now, the sweep enqueues it later
      // (a change without a delivery attempt). Failing this job would only re-run a done check.
      await deps.producer
        .enqueue('webhook', { changeId: outcome.changeId }, { jobId: `change-${outcome.changeId}` })
        .catch((err: unknown) =>
          deps.logger.warn(
            { err, changeId: outcome.changeId },
            'webhook enqueue failed; the sweep retries it',
          ),
        );
    }
    return outcome;
  };
}
