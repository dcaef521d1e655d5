import type { Db } from './db';
import { Prisma } from './generated/prisma/client';
import { isUuid } from './ids';
import { KEY_BLOCKED } from './key-budget.sql';
import type {
  IrrelevantChangeView,
  Judgement,
  MonitorChangeView,
  MonitorCheckView,
  MonitorDetail,
  MonitorDiff,
  MonitorInterval,
  MonitorPausedBy,
  MonitorStatus,
  MonitorView,
  WebhookFormat,
} from './monitor.types';

/** What the scheduler needs of a monitor to place its checks. */
export type MonitorScheduleKey = Pick<
  MonitorView,
  'id' | 'interval' | 'cron' | 'timezone' | 'jitterMs' | 'lastCheckAt' | 'nextCheckAt'
>;

/** Only the newest rows of a monitor's history are returned by `get` (the table keeps everything). */
const DETAIL_CHECKS = 20;
/** Checks judged irrelevant listed apart: the last 20 checks soon hide them on an hourly monitor. */
const DETAIL_IRRELEVANT = 20;
const DETAIL_CHANGES = 100;
const DETAIL_DELIVERIES = 100;

type Row = Omit<
  MonitorView,
  'interval' | 'status' | 'pausedBy' | 'pageOptions' | 'ignoreText' | 'webhookFormat' | 'lastValidators'
> & {
  webhookFormat: string;
  interval: string;
  status: string;
  pausedBy: string | null;
  pageOptions: unknown;
  lastValidators?: unknown;
  ignoreText: unknown;
  /** Never leaves this file through view(): only pageSecretsOf reads it. */
  pageSecrets?: unknown;
  /** Read only by baselineOf (up to 256 KiB: never selected with the rest). */
  lastContent?: unknown;
};

/** Every monitor read leaves out the baseline's content: baselineOf reads it alone. */
const OMIT = { lastContent: true } as const;

function view({ pageSecrets: _secret, lastContent: _content, ...r }: Row): MonitorView {
  return {
    ...r,
    ignoreText: Array.isArray(r.ignoreText) ? (r.ignoreText as string[]) : [],
    pageOptions: r.pageOptions ?? null,
    interval: r.interval as MonitorInterval,
    status: r.status as MonitorStatus,
    pausedBy: r.pausedBy as MonitorPausedBy | null,
    lastValidators: validatorsOf(r.lastValidators),
    webhookFormat: r.webhookFormat as WebhookFormat,
  };
}

/** The stored `last_validators` (strings only), or null. */
function validatorsOf(v: unknown): MonitorView['lastValidators'] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const { etag, lastModified } = v as Record<string, unknown>;
  const out = {
    ...(typeof etag === 'string' && etag ? { etag } : {}),
    ...(typeof lastModified === 'string' && lastModified ? { lastModified } : {}),
  };
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * Monitors that keep a job scheduler: the active ones, and those a user paused (their fires are
 * skipped without a fetch or a charge, so resuming is immediate and keeps the rhythm). A monitor
 * paused for credits has none: the resume sweep re-creates it when credits arrive.
 */
const SCHEDULED = { OR: [{ status: 'active' }, { status: 'paused', pausedBy: 'user' }] };

/**
 * Monitors: created, read with their history, listed, changed, paused, resumed and cancelled by
 * their owners, and placed by the scheduler (checks: MonitorChecksRepository; webhooks:
 * WebhookDeliveriesRepository). Status transitions are guarded
 * in SQL (`WHERE status = …`) so a cancel racing a check or a resume never resurrects a monitor.
 */
export class MonitorsRepository {
  constructor(private readonly db: Db) {}

  async create(input: {
    accountId: string;
    /** The creating key: its credit limits apply to every check. */
    apiKeyId?: string | null;
    url: string;
    interval: MonitorInterval;
    /** With interval 'cron': the expression and its time zone. */
    cron?: string | null;
    timezone?: string;
    webhookUrl: string | null;
    jitterMs: number;
    /** Plain page options of every check. */
    pageOptions?: Prisma.InputJsonObject;
    /** Headers and actions of every check: kept while the monitor exists, read only by the checker. */
    pageSecrets?: Prisma.InputJsonObject;
    ignoreText?: string[];
    threshold?: number;
    goal?: string | null;
    webhookFormat?: WebhookFormat;
  }): Promise<MonitorView> {
    return view(await this.db.prisma.monitor.create({ data: input, omit: OMIT }));
  }

  /** The baseline a check compares with: its hash and its cleaned, filtered content (capped). */
  async baselineOf(id: string): Promise<{ hash: string | null; content: string | null } | null> {
    if (!isUuid(id)) return null;
    const m = await this.db.prisma.monitor.findUnique({
      where: { id },
      select: { lastHash: true, lastContent: true },
    });
    return m ? { hash: m.lastHash, content: m.lastContent } : null;
  }

  /** The headers and actions a check sends (null when none). Worker side only. */
  async pageSecretsOf(id: string): Promise<unknown> {
    if (!isUuid(id)) return null;
    const m = await this.db.prisma.monitor.findUnique({ where: { id }, select: { pageSecrets: true } });
    return m?.pageSecrets ?? null;
  }

  async get(accountId: string, id: string): Promise<MonitorView | null> {
    if (!isUuid(id) || !isUuid(accountId)) return null;
    const m = await this.db.prisma.monitor.findFirst({ where: { id, accountId }, omit: OMIT });
    return m ? view(m) : null;
  }

  /** Worker side: no account scoping. */
  async byId(id: string): Promise<MonitorView | null> {
    if (!isUuid(id)) return null;
    const m = await this.db.prisma.monitor.findUnique({ where: { id }, omit: OMIT });
    return m ? view(m) : null;
  }

  async detail(accountId: string, id: string): Promise<MonitorDetail | null> {
    const monitor = await this.get(accountId, id);
    if (!monitor) return null;
    // One snapshot: a check committed between two separate reads made checkCount 1 with no check listed.
    const [checks, irrelevant, checkCount, changes, deliveries] = await this.db.prisma.$transaction(
      [
        this.db.prisma.monitorCheck.findMany({
          where: { monitorId: id },
          orderBy: { checkedAt: 'desc' },
          take: DETAIL_CHECKS,
        }),
        this.db.prisma.monitorCheck.findMany({
          where: { monitorId: id, judgement: { path: ['relevant'], equals: false } },
          orderBy: { checkedAt: 'desc' },
          take: DETAIL_IRRELEVANT,
          select: { checkedAt: true, judgement: true },
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
    return {
      monitor,
      checks: checks.map(
        (c): MonitorCheckView => ({ ...c, judgement: (c.judgement as Judgement | null) ?? null }),
      ),
      irrelevantChanges: irrelevant.map(
        (c): IrrelevantChangeView => ({
          checkedAt: c.checkedAt,
          judgement: c.judgement as unknown as Judgement,
        }),
      ),
      checkCount,
      changes: changes.map(
        (c): MonitorChangeView => ({
          ...c,
          diff: (c.diff as MonitorDiff | null) ?? null,
          judgement: (c.judgement as Judgement | null) ?? null,
        }),
      ),
      deliveries,
    };
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
        omit: OMIT,
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

  /**
   * Changes the fields a PATCH may change, unless cancelled (`conflict`); null when unknown. A new
   * schedule clears `nextCheckAt` until the scheduler announces it; new `ignoreText` rules clear the
   * baseline, so the next check starts a new one (the rules change the hashed content) instead of
   * reading as a change.
   */
  async update(
    accountId: string,
    id: string,
    patch: {
      interval?: MonitorInterval;
      cron?: string | null;
      timezone?: string;
      webhookUrl?: string | null;
      webhookFormat?: WebhookFormat;
      ignoreText?: string[];
      threshold?: number;
      goal?: string | null;
    },
  ): Promise<MonitorView | 'conflict' | null> {
    if (!isUuid(id) || !isUuid(accountId)) return null;
    const rescheduled = patch.interval !== undefined;
    const { ignoreText, ...rest } = patch;
    const done = await this.db.prisma.monitor.updateMany({
      where: { id, accountId, status: { in: ['active', 'paused'] } },
      data: {
        ...rest,
        ...(ignoreText !== undefined
          ? {
              ignoreText: ignoreText.length > 0 ? ignoreText : Prisma.DbNull,
              lastHash: null,
              lastContent: null,
            }
          : {}),
        ...(rescheduled ? { nextCheckAt: null } : {}),
      },
    });
    const m = await this.get(accountId, id);
    if (!m) return null;
    return done.count === 0 ? 'conflict' : m;
  }

  /** Monitors that must have a job scheduler (see SCHEDULED), by id. */
  async listScheduled(afterId: string | null, limit: number): Promise<MonitorView[]> {
    const rows = await this.db.prisma.monitor.findMany({
      where: { ...SCHEDULED, ...(afterId ? { id: { gt: afterId } } : {}) },
      orderBy: { id: 'asc' },
      take: limit,
      omit: OMIT,
    });
    return rows.map(view);
  }

  /**
   * One page (by id) of what the reconciler compares with Redis: only the columns it needs, so a
   * pass over 10,000 monitors reads ten small pages.
   */
  async listScheduleKeys(afterId: string | null, limit: number): Promise<MonitorScheduleKey[]> {
    const rows = await this.db.prisma.monitor.findMany({
      where: { ...SCHEDULED, ...(afterId ? { id: { gt: afterId } } : {}) },
      select: {
        id: true,
        interval: true,
        cron: true,
        timezone: true,
        jitterMs: true,
        lastCheckAt: true,
        nextCheckAt: true,
      },
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

  /**
   * paused → active for every monitor paused for credits whose account has at least 1 credit again
   * and whose key (if any) has room for one in its limits (a new UTC day or month, a raised limit).
   * Covers every way credits arrive (CLI top-up, admin grant, monthly refill) without hooking each one.
   */
  async resumeFunded(): Promise<string[]> {
    const rows = await this.db.prisma.$queryRaw<Array<{ id: string }>>`
      UPDATE monitors m SET status = 'active', paused_by = NULL, updated_at = now()
      FROM accounts a
      WHERE m.account_id = a.id AND m.status = 'paused' AND m.paused_by = 'credits' AND a.balance >= 1
        AND (m.api_key_id IS NULL OR NOT ${KEY_BLOCKED(Prisma.sql`m.api_key_id`)})
      RETURNING m.id::text AS id`;
    return rows.map((r) => r.id);
  }
}
