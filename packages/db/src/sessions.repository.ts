import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './db';
import type { PlanId } from './plans';

/** What a live dashboard session stands for: the key it was opened with, and that key's account. */
export interface DashboardSessionView {
  sessionId: string;
  accountId: string;
  keyId: string;
  keyPrefix: string;
  plan: PlanId;
  csrfToken: string;
  expiresAt: Date;
}

/** The cookie's token: 32 random bytes, base64url. Only its sha256 reaches the database. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Dashboard sign-in sessions. A session is opened with an API key and lives until its
 * expiry, its sign-out, or the revocation of that key — `resolve` joins the key on every request,
 * so a revoked key's sessions end at once without a second write path.
 */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async open(i: { keyId: string; accountId: string; ttlMs: number }): Promise<{
    token: string;
    session: Omit<DashboardSessionView, 'keyPrefix' | 'plan'>;
  }> {
    const token = newToken();
    const csrfToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + i.ttlMs);
    // Expired rows are only garbage; sweeping them here keeps the table small without a timer.
    await this.db.prisma.dashboardSession.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    const row = await this.db.prisma.dashboardSession.create({
      data: { tokenHash: hashToken(token), keyId: i.keyId, accountId: i.accountId, csrfToken, expiresAt },
      select: { id: true },
    });
    return {
      token,
      session: { sessionId: row.id, accountId: i.accountId, keyId: i.keyId, csrfToken, expiresAt },
    };
  }

  /** The live session of this cookie token; null when unknown, expired or its key was revoked. */
  async resolve(token: string): Promise<DashboardSessionView | null> {
    if (!TOKEN_RE.test(token)) return null;
    const row = await this.db.prisma.dashboardSession.findUnique({
      where: { tokenHash: hashToken(token) },
      select: {
        id: true,
        accountId: true,
        keyId: true,
        csrfToken: true,
        expiresAt: true,
        key: { select: { prefix: true, revokedAt: true, account: { select: { planId: true } } } },
      },
    });
    if (!row || row.key.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
    return {
      sessionId: row.id,
      accountId: row.accountId,
      keyId: row.keyId,
      keyPrefix: row.key.prefix,
      plan: row.key.account.planId as PlanId,
      csrfToken: row.csrfToken,
      expiresAt: row.expiresAt,
    };
  }

  /** Sign-out: idempotent. */
  async close(token: string): Promise<void> {
    if (!TOKEN_RE.test(token)) return;
    await this.db.prisma.dashboardSession.deleteMany({ where: { tokenHash: hashToken(token) } });
  }

  /** A revoked key's sessions are already dead (`resolve`); deleting them just frees the rows. */
  async closeForKey(keyId: string): Promise<number> {
    const r = await this.db.prisma.dashboardSession.deleteMany({ where: { keyId } });
    return r.count;
  }
}
