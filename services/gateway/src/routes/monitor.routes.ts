import { randomInt } from 'node:crypto';
import type { MonitorDetail, MonitorView } from '@wcs/db';
import { ConflictError, InvalidUrlError, NotFoundError, ValidationError } from '@wcs/errors';
import { ignoreRuleProblem } from '@wcs/queues';
import { Router } from 'express';
import { z } from 'zod';
import { monitorBody, monitorPatchBody } from '../contract/monitor.request';
import type { GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';
import { assertFetchableLater } from '../validation/fetch-later-url';
import { monitorSchedule, patchedSchedule } from '../validation/monitor-schedule';
import { checkPageOptions } from '../validation/page-options';
import { parseBody } from '../validation/parse-body';
import { normalizeTargetUrl } from '../validation/target-url';

/** Jitter is drawn once per monitor inside a week and reduced modulo the interval by the scheduler. */
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

const listQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The spec's Monitor object (create response), plus the optional webhookUrl when set. */
function monitorOut(m: MonitorView): Record<string, unknown> {
  return {
    id: m.id,
    url: m.url,
    interval: m.interval,
    // A cron schedule: the expression and its zone (interval reads "cron").
    ...(m.cron ? { cron: m.cron, timezone: m.timezone } : {}),
    status: m.status,
    createdAt: m.createdAt.toISOString(),
    ...(m.webhookUrl ? { webhookUrl: m.webhookUrl } : {}),
    // The rules, only when set: a plain monitor keeps the spec's shape.
    ...(m.ignoreText.length > 0 ? { ignoreText: m.ignoreText } : {}),
    ...(m.threshold > 0 ? { threshold: m.threshold } : {}),
    ...(m.goal ? { goal: m.goal } : {}),
    ...(m.webhookFormat !== 'json' ? { webhookFormat: m.webhookFormat } : {}),
  };
}

function summaryOut(m: MonitorView): Record<string, unknown> {
  return {
    ...monitorOut(m),
    pausedBy: m.pausedBy,
    lastCheckAt: iso(m.lastCheckAt),
    // Paused or cancelled: no check is coming.
    nextCheckAt: m.status === 'active' ? iso(m.nextCheckAt) : null,
  };
}

function detailOut(d: MonitorDetail): Record<string, unknown> {
  return {
    ...summaryOut(d.monitor),
    checkCount: d.checkCount,
    changes: d.changes.map((c) => ({
      id: c.id,
      detectedAt: c.detectedAt.toISOString(),
      hash: c.hash,
      snapshot: c.snapshot,
      previousSnapshot: c.previousSnapshot,
      diff: c.diff,
      ...(c.judgement ? { judgement: c.judgement } : {}),
    })),
    checks: d.checks.map((c) => ({
      checkedAt: c.checkedAt.toISOString(),
      changed: c.changed,
      ...(c.hash ? { hash: c.hash } : {}),
      ...(c.error ? { error: c.error, code: c.errorCode ?? 'INTERNAL' } : {}),
      ...(c.judgement ? { judgement: c.judgement } : {}),
    })),
    irrelevantChanges: d.irrelevantChanges.map((c) => ({
      checkedAt: c.checkedAt.toISOString(),
      judgement: c.judgement,
    })),
    webhookDeliveries: d.deliveries.map((w) => ({
      changeId: w.changeId,
      url: w.url,
      attemptedAt: w.attemptedAt.toISOString(),
      statusCode: w.statusCode,
      durationMs: w.durationMs,
      error: w.error,
    })),
  };
}

/** A webhook receiver as given: no https:// guessing, the receiver must be named exactly. */
function webhookTarget(raw: string): string {
  const url = normalizeTargetUrl(raw, { prependHttps: false, field: 'webhookUrl' });
  if (!/^https?:\/\//i.test(raw.trim()))
    throw new InvalidUrlError('webhookUrl: must be an absolute http(s) URL');
  return url;
}

function checkIgnoreRules(rules: string[] | undefined): void {
  rules?.forEach((rule, i) => {
    const problem = ignoreRuleProblem(rule);
    if (problem)
      throw new ValidationError(`ignoreText.${i}: ${problem}`, { details: { field: `ignoreText.${i}` } });
  });
}

/**
 * /v1/monitor. The gateway only writes rows and enqueues the baseline check; the
 * monitor-scheduler owns the BullMQ job schedulers (created after the baseline, rebuilt on start).
 */
export function monitorRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.post('/v1/monitor', async (req, res) => {
    const auth = authOf(res);
    const body = parseBody(monitorBody, req.body);
    const url = normalizeTargetUrl(body.url, { prependHttps: true });
    const webhookUrl = body.webhookUrl === undefined ? null : webhookTarget(body.webhookUrl);
    await assertFetchableLater(url, deps.settings);
    if (webhookUrl) await assertFetchableLater(webhookUrl, deps.settings);
    const schedule = monitorSchedule(body);
    const {
      waitFor,
      ignoreText,
      threshold,
      goal,
      webhookFormat,
      interval: _interval,
      cron: _cron,
      timezone: _timezone,
      ...fields
    } = body;
    checkIgnoreRules(ignoreText);
    const page = checkPageOptions(fields, { keepsNoScreenshots: 'a monitor' });
    const pageOptions = { ...page.options, ...(waitFor ? { waitFor } : {}) };
    const monitor = await deps.monitors.create({
      accountId: auth.accountId,
      apiKeyId: auth.keyId,
      url,
      interval: schedule.interval,
      ...(schedule.cron ? { cron: schedule.cron, timezone: schedule.timezone } : {}),
      webhookUrl,
      jitterMs: randomInt(WEEK_MS),
      ...(Object.keys(pageOptions).length > 0 ? { pageOptions } : {}),
      ...(page.secrets ? { pageSecrets: page.secrets } : {}),
      ...(ignoreText?.length ? { ignoreText } : {}),
      ...(threshold ? { threshold } : {}),
      ...(goal ? { goal } : {}),
      ...(webhookFormat ? { webhookFormat } : {}),
    });
    try {
      // The baseline check, at once; its job id makes a repeated enqueue a no-op.
      await deps.producer.enqueue(
        'monitor-check',
        { monitorId: monitor.id },
        { jobId: `baseline-${monitor.id}` },
      );
    } catch (err) {
      // Committed: the scheduler's start-up rebuild (and its sweep) schedule it once Redis is back.
      deps.logger.warn({ err, monitorId: monitor.id }, 'baseline check enqueue failed');
    }
    res.status(201).json({ success: true, data: monitorOut(monitor) });
  });

  router.get('/v1/monitor', async (req, res) => {
    const auth = authOf(res);
    const q = listQuery.safeParse(req.query);
    if (!q.success) {
      throw new ValidationError(`skip and limit must be non-negative integers (1 ≤ limit ≤ ${MAX_LIMIT})`);
    }
    const { skip, limit } = q.data;
    const { total, monitors } = await deps.monitors.list(auth.accountId, skip, limit);
    res.json({
      success: true,
      total,
      data: monitors.map(summaryOut),
      ...(skip + limit < total ? { next: `/v1/monitor?skip=${skip + limit}&limit=${limit}` } : {}),
    });
  });

  /** The account's HMAC key for verifying X-Signature on webhooks (created on first use). */
  router.get('/v1/webhook/secret', async (_req, res) => {
    const auth = authOf(res);
    res.json({ success: true, data: { secret: await deps.deliveries.webhookSecret(auth.accountId) } });
  });

  router.get('/v1/monitor/:id', async (req, res) => {
    const auth = authOf(res);
    const id = String(req.params.id);
    // Unknown ids and other accounts' ids are the same 404.
    const detail = UUID.test(id) ? await deps.monitors.detail(auth.accountId, id) : null;
    if (!detail) throw new NotFoundError('Monitor not found');
    res.json({ success: true, data: detailOut(detail) });
  });

  /**
   * Change a monitor's schedule, rules or webhook, validated as on create. A new schedule replaces
   * the job scheduler: the gateway removes it and enqueues a `reschedule` job, with which the
   * monitor-scheduler (which owns the interval scale) installs the new one and announces its next
   * slot; if that job is lost, the reconciler re-creates the missing scheduler from PostgreSQL.
   */
  router.patch('/v1/monitor/:id', async (req, res) => {
    const auth = authOf(res);
    const id = String(req.params.id);
    const body = parseBody(monitorPatchBody, req.body);
    if (Object.keys(body).length === 0) {
      throw new ValidationError(
        'Nothing to change: give one or more of interval, cron, timezone, webhookUrl, webhookFormat, ignoreText, threshold, goal',
      );
    }
    const current = UUID.test(id) ? await deps.monitors.get(auth.accountId, id) : null;
    if (!current) throw new NotFoundError('Monitor not found');
    if (current.status === 'cancelled')
      throw new ConflictError('The monitor is cancelled: it cannot be changed');
    const schedule = patchedSchedule(
      { interval: current.interval, cron: current.cron, timezone: current.timezone },
      body,
    );
    let webhookUrl: string | null | undefined;
    if (body.webhookUrl !== undefined) {
      webhookUrl = body.webhookUrl === null ? null : webhookTarget(body.webhookUrl);
      if (webhookUrl) await assertFetchableLater(webhookUrl, deps.settings);
    }
    checkIgnoreRules(body.ignoreText);
    const out = await deps.monitors.update(auth.accountId, id, {
      ...(schedule ? schedule : {}),
      ...(webhookUrl !== undefined ? { webhookUrl } : {}),
      ...(body.webhookFormat !== undefined ? { webhookFormat: body.webhookFormat } : {}),
      ...(body.ignoreText !== undefined ? { ignoreText: body.ignoreText } : {}),
      ...(body.threshold !== undefined ? { threshold: body.threshold } : {}),
      ...(body.goal !== undefined ? { goal: body.goal } : {}),
    });
    if (out === null) throw new NotFoundError('Monitor not found');
    if (out === 'conflict') throw new ConflictError('The monitor is cancelled: it cannot be changed');
    if (schedule) {
      try {
        const queue = deps.producer.queue('monitor-check');
        await queue.removeJobScheduler(id);
        await deps.producer.enqueue(
          'monitor-check',
          { monitorId: id, reschedule: true },
          { jobId: `reschedule-${id}-${Date.now()}` },
        );
      } catch (err) {
        deps.logger.warn(
          { err, monitorId: id },
          'rescheduling the monitor failed; the reconciler repairs it',
        );
      }
    }
    res.json({ success: true, data: summaryOut(out) });
  });

  /**
   * Pause and resume by the user. A paused monitor keeps its job scheduler, whose fires
   * are skipped without a fetch or a charge, so resuming is immediate and keeps the rhythm.
   */
  router.post('/v1/monitor/:id/pause', async (req, res) => {
    const auth = authOf(res);
    const id = String(req.params.id);
    const out = await deps.monitors.pauseByUser(auth.accountId, id);
    if (out === null) throw new NotFoundError('Monitor not found');
    if (out === 'conflict') throw new ConflictError('The monitor is cancelled: it cannot be paused');
    res.json({ success: true, data: summaryOut(out) });
  });

  router.post('/v1/monitor/:id/resume', async (req, res) => {
    const auth = authOf(res);
    const id = String(req.params.id);
    const out = await deps.monitors.resumeByUser(auth.accountId, id);
    if (out === null) throw new NotFoundError('Monitor not found');
    if (out === 'conflict') {
      const m = await deps.monitors.get(auth.accountId, id);
      throw new ConflictError(
        m?.status === 'paused'
          ? 'The monitor is paused for lack of credits: it resumes by itself once the account has credits'
          : 'The monitor is cancelled: it cannot be resumed',
      );
    }
    res.json({ success: true, data: summaryOut(out) });
  });

  router.delete('/v1/monitor/:id', async (req, res) => {
    const auth = authOf(res);
    const id = String(req.params.id);
    const monitor = UUID.test(id) ? await deps.monitors.cancel(auth.accountId, id) : null;
    if (!monitor) throw new NotFoundError('Monitor not found');
    // Checks stop at once: the check processor skips non-active monitors whatever Redis holds;
    // removing the scheduler just spares the empty fires (the scheduler's rebuild also removes it).
    try {
      await deps.producer.queue('monitor-check').removeJobScheduler(monitor.id);
    } catch (err) {
      deps.logger.warn({ err, monitorId: id }, 'removing the monitor scheduler failed');
    }
    res.json({ success: true, data: summaryOut(monitor) });
  });

  return router;
}
