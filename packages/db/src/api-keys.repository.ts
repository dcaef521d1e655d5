import { ConflictError, NotFoundError } from '@wcs/errors';
import { apiKeyPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key';
import { type Db, inTransaction } from './db';
import { Prisma } from './generated/prisma/client';
import { isUuid } from './ids';
import type { PlanId } from './plans';
import { sqlClient } from './sql-client';

/** lastUsedAt is a hint for humans; writing it on every request would cost a write per call. */
const LAST_USED_GRANULARITY_MS = 60_000;

export interface KeyLimits {
  /** Credits the key may spend per UTC day; null = no limit. */
  dailyCreditLimit: number | null;
  /** Credits the key may spend per UTC calendar month; null = no limit. */
  monthlyCreditLimit: number | null;
}

export interface ApiKeyInfo extends KeyLimits {
  keyId: string;
  prefix: string;
  name: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** Credits charged to the key (net of refunds) in the current UTC day and month. */
  spentToday: number;
  spentThisMonth: number;
}

/** The first instant of the next UTC day and of the next UTC month after `now`: when limits reset. */
export function keyBudgetResets(now = new Date()): { day: Date; month: Date } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  return {
    day: new Date(Date.UTC(y, m, now.getUTCDate() + 1)),
    month: new Date(Date.UTC(y, m + 1, 1)),
  };
}

/** A key's net spend in the current UTC day and month (the rows change_key_balance writes). */
const SPENT_COLUMNS = Prisma.sql`
  COALESCE((SELECT s.spent FROM api_key_spend s WHERE s.api_key_id = k.id AND s.period = 'day'
            AND s.period_start = (now() AT TIME ZONE 'UTC')::date), 0)::int AS "spentToday",
  COALESCE((SELECT s.spent FROM api_key_spend s WHERE s.api_key_id = k.id AND s.period = 'month'
            AND s.period_start = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0)::int AS "spentThisMonth"`;

/** API keys: only the sha256 of a key is stored; the plaintext is returned once, by create(). */
export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  /**
   * A new key. With `maxActive`, an account that already holds that many active keys gets 409
   * CONFLICT instead: the account row is locked, so concurrent creates cannot both pass the count.
   */
  async create(
    accountId: string,
    i: { name?: string; maxActive?: number } & Partial<KeyLimits> = {},
  ): Promise<
    { keyId: string; apiKey: string; prefix: string; name: string | null; createdAt: Date } & KeyLimits
  > {
    if (!isUuid(accountId)) throw new NotFoundError('Account not found');
    const apiKey = generateApiKey();
    const prefix = apiKeyPrefix(apiKey);
    const row = await inTransaction(this.db, async (tx) => {
      const locked = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM accounts WHERE id = ${accountId}::uuid FOR NO KEY UPDATE`;
      if (locked.length === 0) throw new NotFoundError('Account not found');
      if (i.maxActive !== undefined) {
        const active = await tx.apiKey.count({ where: { accountId, revokedAt: null } });
        if (active >= i.maxActive) {
          throw new ConflictError(
            `This account already has ${active} active API keys, the most allowed (${i.maxActive}): revoke one before creating another`,
            { details: { activeKeys: active, maxActiveKeys: i.maxActive } },
          );
        }
      }
      return tx.apiKey.create({
        data: {
          accountId,
          name: i.name ?? null,
          prefix,
          keyHash: hashApiKey(apiKey),
          dailyCreditLimit: i.dailyCreditLimit ?? null,
          monthlyCreditLimit: i.monthlyCreditLimit ?? null,
        },
        select: { id: true, name: true, createdAt: true, dailyCreditLimit: true, monthlyCreditLimit: true },
      });
    });
    return {
      keyId: row.id,
      apiKey,
      prefix,
      name: row.name,
      createdAt: row.createdAt,
      dailyCreditLimit: row.dailyCreditLimit,
      monthlyCreditLimit: row.monthlyCreditLimit,
    };
  }

  /**
   * The key's account, or null when unknown or revoked. Lookup is by hash (an index probe), so the
   * timing reveals nothing about how much of a guessed key was right.
   */
  async verify(apiKey: string): Promise<{ keyId: string; accountId: string; plan: PlanId } | null> {
    if (!isWellFormedApiKey(apiKey)) return null;
    // Every API call runs this: one prepared statement through pg (sql-client.ts), not Prisma.
    const rows = await sqlClient(this.db).$queryRaw<
      Array<{
        id: string;
        accountId: string;
        revokedAt: Date | null;
        lastUsedAt: Date | null;
        planId: string;
      }>
    >`
      SELECT k.id, k.account_id AS "accountId", k.revoked_at AS "revokedAt",
             k.last_used_at AS "lastUsedAt", a.plan_id AS "planId"
      FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.key_hash = ${hashApiKey(apiKey)}`;
    const row = rows[0];
    if (!row || row.revokedAt) return null;
    const now = Date.now();
    if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS) {
      // Conditional, so concurrent requests with the same key write at most once per minute.
      await sqlClient(this.db).$executeRaw`
        UPDATE api_keys SET last_used_at = ${new Date(now)}::timestamptz
        WHERE id = ${row.id}::uuid
          AND (last_used_at IS NULL OR last_used_at < ${new Date(now - LAST_USED_GRANULARITY_MS)}::timestamptz)`;
    }
    return { keyId: row.id, accountId: row.accountId, plan: row.planId as PlanId };
  }

  /** true when the key was active and is now revoked; false when unknown or already revoked. */
  async revoke(keyId: string): Promise<boolean> {
    if (!isUuid(keyId)) return false;
    const r = await this.db.prisma.apiKey.updateMany({
      where: { id: keyId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    return r.count > 0;
  }

  /**
   * The account's own revoke (API and dashboard): `last` when it is the account's only active key
   * (an account must keep a way in), null when unknown or another account's. Idempotent. The
   * account row is locked so two concurrent revokes cannot both pass the "not the last" check.
   */
  async revokeOwned(
    accountId: string,
    keyId: string,
  ): Promise<{ keyId: string; revokedAt: Date } | 'last' | null> {
    if (!isUuid(accountId) || !isUuid(keyId)) return null;
    return inTransaction(this.db, async (tx) => {
      await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId}::uuid FOR NO KEY UPDATE`;
      const key = await tx.apiKey.findFirst({ where: { id: keyId, accountId }, select: { revokedAt: true } });
      if (!key) return null;
      if (key.revokedAt) return { keyId, revokedAt: key.revokedAt };
      const active = await tx.apiKey.count({ where: { accountId, revokedAt: null } });
      if (active <= 1) return 'last';
      const row = await tx.apiKey.update({
        where: { id: keyId },
        data: { revokedAt: new Date() },
        select: { revokedAt: true },
      });
      return { keyId, revokedAt: row.revokedAt! };
    });
  }

  /** All keys of the account (prefixes only), oldest first, with their limits and current spend. */
  async list(accountId: string): Promise<ApiKeyInfo[]> {
    if (!isUuid(accountId)) return [];
    return this.db.prisma.$queryRaw<ApiKeyInfo[]>`
      SELECT k.id AS "keyId", k.prefix, k.name, k.created_at AS "createdAt", k.revoked_at AS "revokedAt",
             k.last_used_at AS "lastUsedAt", k.daily_credit_limit AS "dailyCreditLimit",
             k.monthly_credit_limit AS "monthlyCreditLimit", ${SPENT_COLUMNS}
      FROM api_keys k WHERE k.account_id = ${accountId}::uuid
      ORDER BY k.created_at, k.id`;
  }

  /** One key of the account, as `list` shows it; null when unknown or another account's. */
  async getOwned(accountId: string, keyId: string): Promise<ApiKeyInfo | null> {
    if (!isUuid(accountId) || !isUuid(keyId)) return null;
    const rows = await this.db.prisma.$queryRaw<ApiKeyInfo[]>`
      SELECT k.id AS "keyId", k.prefix, k.name, k.created_at AS "createdAt", k.revoked_at AS "revokedAt",
             k.last_used_at AS "lastUsedAt", k.daily_credit_limit AS "dailyCreditLimit",
             k.monthly_credit_limit AS "monthlyCreditLimit", ${SPENT_COLUMNS}
      FROM api_keys k WHERE k.account_id = ${accountId}::uuid AND k.id = ${keyId}::uuid`;
    return rows[0] ?? null;
  }

  /**
   * Change a key's name or limits (a field left out stays; null removes a limit). A new limit
   * below what the key already spent in the period refuses its next charge until the reset.
   * null when unknown or another account's.
   */
  async updateOwned(
    accountId: string,
    keyId: string,
    patch: {
      name?: string | null | undefined;
      dailyCreditLimit?: number | null | undefined;
      monthlyCreditLimit?: number | null | undefined;
    },
  ): Promise<ApiKeyInfo | null> {
    if (!isUuid(accountId) || !isUuid(keyId)) return null;
    const r = await this.db.prisma.apiKey.updateMany({
      where: { id: keyId, accountId },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.dailyCreditLimit !== undefined ? { dailyCreditLimit: patch.dailyCreditLimit } : {}),
        ...(patch.monthlyCreditLimit !== undefined ? { monthlyCreditLimit: patch.monthlyCreditLimit } : {}),
      },
    });
    if (r.count === 0) return null;
    return this.getOwned(accountId, keyId);
  }
}
