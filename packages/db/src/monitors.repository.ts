import { randomBytes } from 'node:crypto';
import { InsufficientCreditsError } from '@wcs/errors';
import { chargeInTx } from './credits.ops';
import { type Db, inTransaction } from './db';
import { Prisma } from './generated/prisma/client';
import { isUuid } from './ids';
import type {
  CheckOutcome,
  MonitorDetail,
  MonitorInterval,
  MonitorPausedBy,
  MonitorStatus,
  MonitorView,
  WebhookTask,
} from './monitor.types';

/** Only the newest rows of a monitor's history are returned by `get` (the table keeps everything). */
const DETAIL_CHECKS = 20;
const DETAIL_CHANGES = 100;
const DETAIL_DELIVERIES = 100;

type Row = Omit<MonitorView, 'interval' | 'status' | 'pausedBy' | 'pageOptions'> & {
  interval: string;
  status: string;
  pausedBy: string | null;
  pageOptions: unknown;
  /** Never leaves this file through view(): only pageSecretsOf reads it. */
  pageSecrets?: unknown;
};

function view({ pageSecrets: _secret, ...r }: Row): MonitorView {
  return {
    ...r,
    pageOptions: r.pageOptions ?? null,
    interval: r.interval as MonitorInterval,
    status: r.status as MonitorStatus,
    pausedBy: r.pausedBy as MonitorPausedBy | null,
  };
}

/**
 * Monitors that keep a job scheduler: the active ones, and those a user paused (their fires are
 * skipped without a fetch or a charge, so resuming is immediate and keeps the rhythm). A monitor
 * paused for credits has none: the resume sweep re-creates it when credits arrive.
 */
const SCHEDULED = { OR: [{ status: 'active' }, { status: 'paused', pausedBy: 'user' }] };

/**
 * Monitors, their checks, changes and webhook deliveries. Status transitions are guarded
 * in SQL (`WHERE status = …`) so a cancel racing a check or a resume never resurrects a monitor.
 */
export class MonitorsRepository {
  constructor(private readonly db: Db) {}

  async create(input: {
    accountId: string;
    url: string;
    interval: MonitorInterval;
    webhookUrl: string | null;
    jitterMs: number;
    /** Plain page options of every check. */
    pageOptions?: Prisma.InputJsonObject;
    /** Headers and actions of every check: kept while the monitor exists, read only by the checker. */
    pageSecrets?: Prisma.InputJsonObject;
  }): Promise<MonitorView> {
    return view(await this.db.prisma.monitor.create({ data: input }));
  }

  /** The headers and actions a check sends (null when none). Worker side only. */
  async pageSecretsOf(id: string): Promise<unknown> {
    if (!isUuid(id)) return null;
    const m = await this.db.prisma.monitor.findUnique({ where: { id }, select: { pageSecrets: true } });
    return m?.pageSecrets ?? null;
  }

  async get(accountId: string, id: string): Promise<MonitorView | null> {
    if (!isUuid(id) || !isUuid(accountId)) return null;
    const m = await this.db.prisma.monitor.findFirst({ where: { id, accountId } });
    return m ? view(m) : null;
  }

  /** Worker side: no account scoping. */
  async byId(id: string): Promise<MonitorView | null> {
    if (!isUuid(id)) return null;
    const m = await this.db.prisma.monitor.findUnique({ where: { id } });
    return m ? view(m) : null;
  }

  async detail(accountId: string, id: string): Promise<MonitorDetail | null> {
    const monitor = await this.get(accountId, id);
    if (!monitor) return null;
    // One snapshot: a check committed between two separate reads made checkCount 1 with no check listed.
    const [checks, checkCount, changes, deliveries] = await this.db.prisma.$transaction(
      [
        this.db.prisma.monitorCheck.findMany({
          where: { monitorId: id },
          orderBy: { checkedAt: 'desc' },
          take: DETAIL_CHECKS,
        }),
        this.db.prisma.monitorCheck.count({ where: { monitorId: id } }),
        this.db.prisma.monitorChange.findMany({
          where: { monitorId: id },
          orderBy: { detectedAt: 'desc' },
          take: DETAIL_CHANGES,
        }),
        this.db.prisma.webhookDelivery.findMany({
          where: { monitorId: id },
          orderBy: { attemptedAt: 'desc' },
          take: DETAIL_DELIVERIES,
        }),
      ],
      { isolationLevel: 'RepeatableRead' },
    );
    return { monitor, checks, checkCount, changes, deliveries };
  }

  async list(
    accountId: string,
    skip: number,
    limit: number,
  ): Promise<{ total: number; monitors: MonitorView[] }> {
    if (!isUuid(accountId)) return { total: 0, monitors: [] };
    const [total, rows] = await Promise.all([
      this.db.prisma.monitor.count({ where: { accountId } }),
      this.db.prisma.monitor.findMany({
        where: { accountId },
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
        skip,
        take: limit,
      }),
    ]);
    return { total, monitors: rows.map(view) };
  }

  /** active|paused → cancelled; null when the id is unknown or another account's. Idempotent. */
  async cancel(accountId: string, id: string): Promise<MonitorView | null> {
    if (!isUuid(id) || !isUuid(accountId)) return null;
    await this.db.prisma.monitor.updateMany({
      where: { id, accountId, status: { in: ['active', 'paused'] } },
      // A cancelled monitor checks nothing again: its headers and actions go.
      data: { status: 'cancelled', pausedBy: null, nextCheckAt: null, pageSecrets: Prisma.DbNull },
    });
    return this.get(accountId, id);
  }

  /**
   * active → paused by the user (a monitor paused for credits becomes the user's: it no longer
   * resumes by itself). `conflict` when cancelled; null when unknown or another account's.
   */
  async pauseByUser(accountId: string, id: string): Promise<MonitorView | 'conflict' | null> {
    if (!isUuid(id) || !isUuid(accountId)) return null;
    await this.db.prisma.monitor.updateMany({
      where: { id, accountId, status: { in: ['active', 'paused'] } },
      data: { status: 'paused', pausedBy: 'user' },
    });
    const m = await this.get(accountId, id);
    return m && m.status === 'cancelled' ? 'conflict' : m;
  }

  /**
   * paused by the user → active. `conflict` when cancelled or paused for lack of credits (that one
   * resumes by itself when credits arrive); an active monitor is returned as is.
   */
  async resumeByUser(accountId: string, id: string): Promise<MonitorView | 'conflict' | null> {
    if (!isUuid(id) || !isUuid(accountId)) return null;
    await this.db.prisma.monitor.updateMany({
      where: { id, accountId, status: 'paused', pausedBy: 'user' },
      data: { status: 'active', pausedBy: null },
    });
    const m = await this.get(accountId, id);
    return m && m.status !== 'active' ? 'conflict' : m;
  }

  /** Monitors that must have a job scheduler (see SCHEDULED), by id. */
  async listScheduled(afterId: string | null, limit: number): Promise<MonitorView[]> {
    const rows = await this.db.prisma.monitor.findMany({
      where: { ...SCHEDULED, ...(afterId ? { id: { gt: afterId } } : {}) },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map(view);
  }

  /**
   * One page (by id) of what the reconciler compares with Redis: only the columns it needs, so a
   * pass over 10,000 monitors reads ten small pages.
   */
  async listScheduleKeys(
    afterId: string | null,
    limit: number,
  ): Promise<Array<Pick<MonitorView, 'id' | 'interval' | 'jitterMs' | 'lastCheckAt' | 'nextCheckAt'>>> {
    const rows = await this.db.prisma.monitor.findMany({
      where: { ...SCHEDULED, ...(afterId ? { id: { gt: afterId } } : {}) },
      select: { id: true, interval: true, jitterMs: true, lastCheckAt: true, nextCheckAt: true },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map((r) => ({ ...r, interval: r.interval as MonitorInterval }));
  }

  /** Of these ids, the ones that must have no scheduler (paused for credits, cancelled or gone). */
  async unscheduledAmong(ids: string[]): Promise<string[]> {
    const valid = ids.filter(isUuid);
    const live = await this.db.prisma.monitor.findMany({
      where: { id: { in: valid }, ...SCHEDULED },
      select: { id: true },
    });
    const keep = new Set(live.map((m) => m.id));
    return ids.filter((id) => !keep.has(id));
  }

  async setNextCheck(id: string, at: Date): Promise<void> {
    await this.db.prisma.monitor.updateMany({
      where: { id, status: { in: ['active', 'paused'] } },
      data: { nextCheckAt: at },
    });
  }

  /** Active monitors never checked although created a while ago (their baseline enqueue was lost). */
  async listUnstarted(createdBefore: Date, limit: number): Promise<string[]> {
    const rows = await this.db.prisma.monitor.findMany({
      where: { status: 'active', lastCheckAt: null, createdAt: { lt: createdBefore } },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
    return rows.map((r) => r.id);
  }

  /**
   * Changes detected in [after, before) whose monitor has a webhook URL and that have no delivery
   * attempt: their webhook job was lost (every attempt, failed or not, records a delivery row).
   */
  async listUndeliveredChanges(detectedAfter: Date, detectedBefore: Date, limit: number): Promise<string[]> {
    const rows = await this.db.prisma.monitorChange.findMany({
      where: {
        detectedAt: { gte: detectedAfter, lt: detectedBefore },
        deliveries: { none: {} },
        monitor: { webhookUrl: { not: null } },
      },
      select: { id: true },
      orderBy: { detectedAt: 'asc' },
      take: limit,
    });
    return rows.map((r) => r.id);
  }

  /** Before fetching: is there at least one credit? (The charge itself happens in `recordCheck`.) */
  async hasCredit(accountId: string): Promise<boolean> {
    const a = await this.db.prisma.account.findUnique({
      where: { id: accountId },
      select: { balance: true },
    });
    return (a?.balance ?? 0) >= 1;
  }

  /** active → paused (out of credits), with a check row saying why. */
  async pause(monitorId: string, reason: string): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const n = await tx.monitor.updateMany({
        where: { id: monitorId, status: 'active' },
        data: { status: 'paused', pausedBy: 'credits' },
      });
      if (n.count > 0) {
        await tx.monitorCheck.create({
          data: { monitorId, error: reason, errorCode: 'INSUFFICIENT_CREDITS' },
        });
      }
    });
  }

  /** A check whose scrape failed: recorded, not billed, the last hash kept. */
  async recordFailedCheck(
    monitorId: string,
    error: string,
    errorCode: string,
    nextCheckAt: Date | null,
  ): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await tx.monitorCheck.create({ data: { monitorId, error: error.slice(0, 1_000), errorCode } });
      await tx.monitor.updateMany({
        where: { id: monitorId, status: { in: ['active', 'paused'] } },
        data: { lastCheckAt: new Date(), ...(nextCheckAt ? { nextCheckAt } : {}) },
      });
    });
  }

  /**
   * A successful check, in one transaction under the monitor's row lock: charge 1 credit
   * (reference = check id), compare the hash, record the check and, on a change, the change row.
   * The first hash is the baseline (no change). Out of credits → the monitor is paused instead.
   *
   * Checks of one monitor can overlap (the baseline job and the first tick, a slow fetch past the
   * next tick) and finish out of order. A check whose fetch began before that of a check already
   * recorded is superseded: it is recorded (and billed: the page was fetched) as seen at
   * `observedAt`, but compared with nothing and it moves no hash, so a late old page never reads
   * as a change back to it.
   */
  async recordCheck(input: {
    monitorId: string;
    checkId: string;
    hash: string;
    snapshot: string;
    nextCheckAt: Date | null;
    /** When this check's fetch began: the check's `checkedAt`. */
    observedAt: Date;
  }): Promise<CheckOutcome> {
    try {
      return await inTransaction(this.db, async (tx) => {
        const locked = await tx.$queryRaw<
          Array<{
            status: string;
            last_hash: string | null;
            last_snapshot: string | null;
            account_id: string;
            webhook_url: string | null;
          }>
        >`
          SELECT status, last_hash, last_snapshot, account_id::text AS account_id, webhook_url FROM monitors
          WHERE id = ${input.monitorId}::uuid FOR UPDATE`;
        const m = locked[0];
        if (!m) return { kind: 'skipped', status: 'cancelled' } as const;
        if (m.status !== 'active') return { kind: 'skipped', status: m.status as MonitorStatus } as const;
        const charge = await chargeInTx(tx, m.account_id, 1, {
          reason: 'monitor_check',
          reference: input.checkId,
        });
        // Already billed = this check was recorded by an earlier delivery of the same job.
        if (!charge.applied) return { kind: 'skipped', status: 'active' } as const;
        const check = { id: input.checkId, monitorId: input.monitorId, checkedAt: input.observedAt };
        const newer = await tx.$queryRaw<unknown[]>`
          SELECT 1 FROM monitor_checks
          WHERE monitor_id = ${input.monitorId}::uuid AND hash IS NOT NULL AND checked_at > ${input.observedAt}
          LIMIT 1`;
        if (newer.length > 0) {
          await tx.monitorCheck.create({ data: { ...check, hash: input.hash, changed: false } });
          return { kind: 'superseded', checkId: input.checkId } as const;
        }
        const changed = m.last_hash !== null && m.last_hash !== input.hash;
        const now = new Date();
        await tx.monitorCheck.create({ data: { ...check, hash: input.hash, changed } });
        await tx.monitor.update({
          where: { id: input.monitorId },
          data: {
            lastHash: input.hash,
            lastSnapshot: input.snapshot,
            lastCheckAt: now,
            ...(input.nextCheckAt ? { nextCheckAt: input.nextCheckAt } : {}),
          },
        });
        if (!changed) {
          return { kind: m.last_hash === null ? 'baseline' : 'unchanged', checkId: input.checkId } as const;
        }
        const change = await tx.monitorChange.create({
          data: {
            monitorId: input.monitorId,
            detectedAt: now,
            hash: input.hash,
            snapshot: input.snapshot,
            previousSnapshot: m.last_snapshot,
          },
        });
        return {
          kind: 'changed',
          checkId: input.checkId,
          changeId: change.id,
          webhookUrl: m.webhook_url,
        } as const;
      });
    } catch (err) {
      if (!(err instanceof InsufficientCreditsError)) throw err;
      await this.pause(input.monitorId, err.message);
      return { kind: 'paused' };
    }
  }

  /**
   * paused → active for every monitor paused for credits whose account has at least 1 credit again. Covers
   * every way credits arrive (CLI top-up, admin grant, monthly refill) without hooking each one.
   */
  async resumeFunded(): Promise<string[]> {
    const rows = await this.db.prisma.$queryRaw<Array<{ id: string }>>`
      UPDATE monitors m SET status = 'active', paused_by = NULL, updated_at = now()
      FROM accounts a
      WHERE m.account_id = a.id AND m.status = 'paused' AND m.paused_by = 'credits' AND a.balance >= 1
      RETURNING m.id::text AS id`;
    return rows.map((r) => r.id);
  }

  async webhookTask(changeId: string): Promise<WebhookTask | null> {
    if (!isUuid(changeId)) return null;
    const c = await this.db.prisma.monitorChange.findUnique({
      where: { id: changeId },
      include: { monitor: true, deliveries: { select: { id: true } } },
    });
    if (!c) return null;
    return {
      changeId: c.id,
      monitorId: c.monitorId,
      accountId: c.monitor.accountId,
      url: c.monitor.url,
      webhookUrl: c.monitor.webhookUrl,
      detectedAt: c.detectedAt,
      snapshot: c.snapshot,
      alreadyAttempted: c.deliveries.length > 0,
    };
  }

  /** One row per change (unique change_id): a duplicate delivery of the job records nothing twice. */
  async recordDelivery(d: {
    monitorId: string;
    changeId: string;
    url: string;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
  }): Promise<boolean> {
    const rows = await this.db.prisma.$executeRaw`
      INSERT INTO webhook_deliveries (monitor_id, change_id, url, status_code, duration_ms, error)
      VALUES (${d.monitorId}::uuid, ${d.changeId}::uuid, ${d.url}, ${d.statusCode}, ${d.durationMs}, ${d.error})
      ON CONFLICT (change_id) DO NOTHING`;
    return rows > 0;
  }

  /** The account's webhook signing secret, created on first use (32 random bytes, hex). */
  async webhookSecret(accountId: string): Promise<string> {
    const fresh = randomBytes(32).toString('hex');
    const rows = await this.db.prisma.$queryRaw<Array<{ secret: string }>>`
      INSERT INTO webhook_secrets (account_id, secret) VALUES (${accountId}::uuid, ${fresh})
      ON CONFLICT (account_id) DO UPDATE SET secret = webhook_secrets.secret
      RETURNING secret`;
    return rows[0]!.secret;
  }
}
