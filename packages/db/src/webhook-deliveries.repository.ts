import { randomBytes } from 'node:crypto';
import type { Db } from './db';
import { isUuid } from './ids';
import type { Judgement, MonitorDiff, WebhookFormat, WebhookTask } from './monitor.types';

/** A monitor change's webhook: what to send, its one delivery record, the account's signing secret. */
export class WebhookDeliveriesRepository {
  constructor(private readonly db: Db) {}

  async webhookTask(changeId: string): Promise<WebhookTask | null> {
    if (!isUuid(changeId)) return null;
    const c = await this.db.prisma.monitorChange.findUnique({
      where: { id: changeId },
      include: { monitor: { omit: { lastContent: true } }, deliveries: { select: { id: true } } },
    });
    if (!c) return null;
    return {
      changeId: c.id,
      monitorId: c.monitorId,
      accountId: c.monitor.accountId,
      url: c.monitor.url,
      webhookUrl: c.monitor.webhookUrl,
      webhookFormat: c.monitor.webhookFormat as WebhookFormat,
      detectedAt: c.detectedAt,
      snapshot: c.snapshot,
      diff: (c.diff as MonitorDiff | null) ?? null,
      judgement: (c.judgement as Judgement | null) ?? null,
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
