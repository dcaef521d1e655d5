import { createHash } from 'node:crypto';
import { cleanMarkdownForHash, diffMarkdown, wordChangeShare } from '@wcs/content';
import type {
  CheckDecision,
  CheckOutcome,
  MonitorChecksRepository,
  MonitorsRepository,
  MonitorView,
} from '@wcs/db';
import { toServiceError } from '@wcs/errors';
import type { ProviderChoice } from '@wcs/llm';
import type { Logger } from '@wcs/logger';
import {
  compileIgnoreRules,
  dropIgnoredLines,
  isIgnoredLine,
  isJobLockLost,
  type Job,
  type JobContext,
  type PayloadOf,
  pageOptions,
  pageSecrets,
  type QueueProducer,
  remainingMs,
} from '@wcs/queues';
import type { Renderer } from '@wcs/renderer';
import { type ContentPool, type PageValidators, scrapeDocumentIfModified } from '@wcs/scraper';
import { z } from 'zod';
import { JUDGE_COST, type JudgeSettings, judgeChange } from './change-judge';
import type { MonitorSchedules } from './monitor-schedules';

export const SNAPSHOT_CHARS = 500;
/** The baseline's cleaned, filtered markdown is kept up to this many characters (diffs see no further). */
export const BASELINE_CHARS = 256 * 1024;
/**
 * A change's diff as kept and sent: lines listed per side, each line's length (a page of one
 * huge paragraph), the listed lines' characters together, and the unified text's length.
 */
export const DIFF_LIMITS = {
  maxLines: 200,
  maxLineChars: 1_000,
  maxListChars: 64 * 1024,
  maxTextChars: 16 * 1024,
} as const;

/** A monitor's stored page options: the plain ones plus its `waitFor` (written by the gateway). */
const monitorPageOptions = pageOptions.extend({ waitFor: z.number().int().min(0).max(30_000).optional() });

export interface MonitorCheckDeps {
  monitors: MonitorsRepository;
  /** Paying for, pausing and recording the checks. */
  checks: MonitorChecksRepository;
  schedules: MonitorSchedules;
  producer: QueueProducer;
  renderer: Renderer;
  /** Converts the checked pages (created and closed by the scheduler's wiring). */
  pool: ContentPool;
  logger: Logger;
  /** The extract model, for monitors with a goal (a check of one without a model fails, recorded). */
  judge?: { provider: ProviderChoice; settings: JudgeSettings };
}

/** A check's id, derived from the job id so a re-delivered job charges and records once. */
export function checkIdFor(jobId: string): string {
  const h = createHash('sha256').update(jobId).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The hashed and diffed text: the cleaned markdown without the lines the monitor ignores. Source
 * lines are filtered before prose joins (a line after a <br> stays apart from its neighbours), and
 * the joined lines again (a phrase a soft wrap had split).
 */
export function watchedContent(markdown: string, ignoreText: readonly string[] = []): string {
  const rules = compileIgnoreRules(ignoreText);
  if (rules.length === 0) return cleanMarkdownForHash(markdown);
  const cleaned = cleanMarkdownForHash(markdown, { dropLine: (line) => isIgnoredLine(line, rules) });
  return dropIgnoredLines(cleaned, rules);
}

export function contentHash(markdown: string, ignoreText: readonly string[] = []): string {
  return createHash('sha256').update(watchedContent(markdown, ignoreText)).digest('hex');
}

type Result = CheckOutcome | { kind: 'failed'; code: string };

class JudgeFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('judge failed');
  }
}

/**
 * A content that differs from the baseline: below the threshold, or a change with its diff, judged
 * against the goal when the monitor has one. Throws JudgeFailed when the judge fails.
 */
async function decide(
  deps: MonitorCheckDeps,
  m: MonitorView,
  before: string,
  after: string,
  budget: { remainingMs: number; signal?: AbortSignal },
): Promise<CheckDecision> {
  if (m.threshold > 0 && wordChangeShare(before, after) < m.threshold) return { kind: 'below_threshold' };
  const d = diffMarkdown(before, after, DIFF_LIMITS);
  const diff = { added: d.added, removed: d.removed, text: d.text, truncated: d.truncated };
  if (!m.goal) return { kind: 'change', diff };
  try {
    if (!deps.judge) throw new Error('No model is configured for judging monitor goals');
    const judgement = await judgeChange(deps.judge.provider, deps.judge.settings, {
      goal: m.goal,
      url: m.url,
      diffText: d.text,
      content: after,
      ...budget,
    });
    return judgement.relevant ? { kind: 'change', diff, judgement } : { kind: 'irrelevant', judgement };
  } catch (err) {
    throw new JudgeFailed(err);
  }
}

/**
 * One monitor check: skip unless active; fetch the main content (conditionally, with the last
 * check's ETag / Last-Modified: a 304 is a check without change, nothing downloaded); hash the
 * normalised cleaned markdown; record the check (1 credit, in the same transaction); on a change
 * enqueue one webhook.
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
    // The schedule changed (PATCH): the new scheduler and its next slot, no check, no charge.
    if (payload.reschedule) {
      if (m.status === 'active' || m.pausedBy === 'user') {
        await deps.schedules.upsert(m);
        await deps.monitors.setNextCheck(m.id, deps.schedules.nextFire(m));
      }
      return { kind: 'skipped', status: m.status };
    }
    // The baseline installs the scheduler of an active monitor; the reconciler owns the others.
    if (job.id?.startsWith('baseline-') && m.status === 'active') await deps.schedules.upsert(m);
    if (m.status !== 'active') {
      // A user's pause keeps the scheduler: keep its next fire current, so a resume announces it.
      if (m.pausedBy === 'user') await deps.monitors.setNextCheck(m.id, deps.schedules.nextFire(m));
      return { kind: 'skipped', status: m.status };
    }
    // The slot after this job's own (BullMQ's rule for the scheduler's next job): a job run
    // ahead of its slot (promoted) does not announce that same slot again.
    const slot = (job.opts as { prevMillis?: number } | undefined)?.prevMillis ?? 0;
    const next = deps.schedules.nextFire(m, Math.max(Date.now(), slot));
    const unpaid = await deps.checks.cannotPayCheck(m.accountId, m.apiKeyId);
    if (unpaid) {
      await deps.checks.pause(m.id, unpaid.reason, unpaid.code);
      deps.logger.info(
        { monitorId: m.id, code: unpaid.code },
        'monitor paused: out of credits or key budget',
      );
      return { kind: 'paused' };
    }
    let markdown: string | undefined;
    let validators: PageValidators | null = null;
    // The check's time is when its fetch began: overlapping checks are ordered by it.
    const observedAt = new Date();
    try {
      const { waitFor, ...page } = monitorPageOptions.nullable().parse(m.pageOptions) ?? {};
      const secrets = pageSecrets.nullable().parse(await deps.monitors.pageSecretsOf(m.id));
      // The last check's validators: a 304 is this check's answer, the page unchanged since then
      // (nothing downloaded or converted). Only with a last hash to repeat.
      const revalidate = m.lastHash !== null ? m.lastValidators : null;
      // A worker cut off from Redis since it took the check may have lost it to another: no fetch.
      await ctx?.confirmLock();
      const doc = await scrapeDocumentIfModified(deps, {
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
        ...(revalidate ? { revalidate } : {}),
      });
      if ('notModified' in doc) validators = doc.validators;
      else {
        markdown = doc.data.markdown ?? '';
        validators = doc.validators ?? null;
      }
    } catch (err) {
      if (isJobLockLost(err)) throw err;
      const se = toServiceError(err);
      await deps.checks.recordFailedCheck(m.id, se.message, se.code, next);
      return { kind: 'failed', code: se.code };
    }
    // A 304 (no markdown) repeats the last hash: the page is the one it was computed from.
    const watched = markdown === undefined ? undefined : watchedContent(markdown, m.ignoreText);
    const hash =
      watched === undefined ? (m.lastHash as string) : createHash('sha256').update(watched).digest('hex');
    const content = watched?.slice(0, BASELINE_CHARS);
    const base = content === undefined ? undefined : await deps.monitors.baselineOf(m.id);
    let decision: CheckDecision | undefined;
    if (content !== undefined && base?.hash && base.hash !== hash) {
      if (m.goal && !(await deps.checks.hasCredit(m.accountId, 1 + JUDGE_COST))) {
        await deps.checks.pause(
          m.id,
          `Insufficient credits: a check whose change is judged against the goal costs ${1 + JUDGE_COST} credits`,
        );
        return { kind: 'paused' };
      }
      try {
        decision = await decide(deps, m, base.content ?? '', content, {
          remainingMs: ctx ? remainingMs(ctx) : opts.timeoutMs,
          ...(ctx ? { signal: ctx.signal } : {}),
        });
      } catch (err) {
        // A failed judge fails the check (not billed, the baseline kept): the next check judges again.
        const se = toServiceError(err instanceof JudgeFailed ? err.cause : err);
        await deps.checks.recordFailedCheck(m.id, se.message, se.code, next);
        return { kind: 'failed', code: se.code };
      }
    }
    const outcome = await deps.checks.recordCheck({
      monitorId: m.id,
      checkId: checkIdFor(job.id ?? `${m.id}:${Date.now()}`),
      hash,
      ...(markdown !== undefined ? { snapshot: markdown.trim().slice(0, SNAPSHOT_CHARS) } : {}),
      validators,
      nextCheckAt: next,
      observedAt,
      ...(content !== undefined ? { content } : {}),
      ...(base ? { baseHash: base.hash } : {}),
      ...(decision ? { decision } : {}),
      ...(decision && decision.kind !== 'below_threshold' && decision.judgement
        ? { judgeCost: JUDGE_COST }
        : {}),
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
