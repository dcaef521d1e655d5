import { Prisma } from './generated/prisma/client';

/**
 * True when the key `keyId` (an SQL uuid expression) cannot spend one more credit now: its daily
 * or monthly limit is reached for the current UTC day / month (api_key_spend).
 */
export const KEY_BLOCKED = (keyId: Prisma.Sql) => Prisma.sql`EXISTS (
  SELECT 1 FROM api_keys k
  WHERE k.id = ${keyId} AND (
    k.daily_credit_limit < 1 + COALESCE((SELECT s.spent FROM api_key_spend s WHERE s.api_key_id = k.id
      AND s.period = 'day' AND s.period_start = (now() AT TIME ZONE 'UTC')::date), 0)
    OR k.monthly_credit_limit < 1 + COALESCE((SELECT s.spent FROM api_key_spend s WHERE s.api_key_id = k.id
      AND s.period = 'month' AND s.period_start = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0)))`;
