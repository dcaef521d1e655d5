import { z } from 'zod';

/** Response contract of the account endpoints the dashboard uses ; see ./responses.ts. */

const ok = z.literal(true);
const count = z.number().int();
const timestamp = z.iso.datetime().describe('ISO 8601, milliseconds, UTC');

const usageCounts = z.strictObject({
  scrape: count,
  batch: count,
  crawl: count,
  map: count,
  search: count,
  extract: count,
  monitor: count,
  total: count,
});

export const accountResponse = z.strictObject({
  success: ok,
  data: z.strictObject({
    accountId: z.uuid(),
    name: z.string().nullable(),
    createdAt: timestamp,
    balance: count,
    plan: z.strictObject({
      id: z.string(),
      name: z.string(),
      monthlyCredits: count.describe('0 = custom (enterprise)'),
      priceUsd: z.number().nullable().describe('null = custom pricing'),
    }),
    usedLast30Days: count.describe('= totals.total of GET /v1/usage?days=30'),
    rateLimit: z.strictObject({
      limit: count.describe('requests per window for this account, all its keys together'),
      remaining: count.describe('left in the current window, this request counted'),
      windowSeconds: count,
      resetsAt: timestamp,
    }),
  }),
});

export const usageResponse = z.strictObject({
  success: ok,
  data: z.strictObject({
    from: timestamp.describe('start of the first UTC day'),
    to: timestamp.describe('now'),
    operations: z.array(z.string()),
    days: z.array(usageCounts.extend({ date: z.string().describe('UTC day, YYYY-MM-DD') })),
    totals: usageCounts,
  }),
});

export const ledgerEntry = z.strictObject({
  id: z.string().describe('row id (digits); the cursor of the next page'),
  createdAt: timestamp,
  reason: z.string(),
  amount: count.describe('+ credit / − debit'),
  reference: z.string().nullable(),
  balanceAfter: count,
});

export const ledgerResponse = z.strictObject({
  success: ok,
  total: count.describe('rows matching the filter'),
  data: z.array(ledgerEntry),
  next: z.string().describe('path of the next (older) page; absent on the last').optional(),
});

export const apiKeyInfo = z.strictObject({
  id: z.uuid(),
  prefix: z.string().describe('first 12 characters, safe to show'),
  name: z.string().nullable(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable().describe('to the minute'),
  revokedAt: timestamp.nullable(),
  current: z.boolean().describe('the key of this request (or of this dashboard session)'),
  dailyCreditLimit: count.nullable().describe('credits per UTC day; null = no limit'),
  monthlyCreditLimit: count.nullable().describe('credits per UTC calendar month; null = no limit'),
  spentToday: count.describe('credits charged to this key today (UTC), refunds deducted'),
  spentThisMonth: count.describe('credits charged to this key this month (UTC), refunds deducted'),
  dayResetsAt: timestamp.describe('next 00:00 UTC: when spentToday starts again from 0'),
  monthResetsAt: timestamp.describe('the 1st of next month, 00:00 UTC: when spentThisMonth starts again'),
});

export const keyUpdateResponse = z.strictObject({ success: ok, data: apiKeyInfo });

export const keyListResponse = z.strictObject({ success: ok, data: z.array(apiKeyInfo) });

export const keyCreateResponse = z.strictObject({
  success: ok,
  data: z.strictObject({
    id: z.uuid(),
    key: z.string().describe('the full key: shown this once, only its hash is stored'),
    prefix: z.string(),
    name: z.string().nullable(),
    createdAt: timestamp,
    dailyCreditLimit: count.nullable(),
    monthlyCreditLimit: count.nullable(),
  }),
});

export const keyRevokeResponse = z.strictObject({
  success: ok,
  data: z.strictObject({ id: z.uuid(), revokedAt: timestamp }),
});

export const batchSummary = z.strictObject({
  id: z.uuid(),
  status: z.enum(['pending', 'processing', 'done']),
  total: count,
  completed: count,
  failed: count,
  creditsUsed: count,
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
});

export const batchListResponse = z.strictObject({
  success: ok,
  total: count,
  data: z.array(batchSummary),
  next: z.string().optional(),
});

export const crawlSummary = z.strictObject({
  id: z.uuid(),
  url: z.string(),
  status: z.enum(['pending', 'processing', 'done', 'failed']),
  stopReason: z.string().nullable(),
  discovered: count,
  completed: count,
  failed: count,
  creditsUsed: count,
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
});

export const crawlListResponse = z.strictObject({
  success: ok,
  total: count,
  data: z.array(crawlSummary),
  next: z.string().optional(),
});

const resultCommon = {
  url: z.string(),
  status: z.string().describe('batch: queued|running|done|failed; crawl: also skipped|duplicate'),
  error: z.string().nullable(),
  code: z.string().nullable(),
};

export const batchResultRow = z.strictObject({
  itemId: z.uuid(),
  position: count,
  title: z.string().nullable(),
  ...resultCommon,
});
export const crawlResultRow = z.strictObject({
  pageId: z.uuid(),
  depth: count,
  statusCode: count.nullable(),
  title: z.string().nullable(),
  ...resultCommon,
});

export const batchResultsResponse = z.strictObject({
  success: ok,
  total: count,
  data: z.array(batchResultRow),
  next: z.string().optional(),
});
export const crawlResultsResponse = z.strictObject({
  success: ok,
  total: count,
  data: z.array(crawlResultRow),
  next: z.string().optional(),
});

const storedDocument = z
  .record(z.string(), z.unknown())
  .nullable()
  .describe('the stored document (markdown, metadata and the format asked for); null unless done');

export const batchResultResponse = z.strictObject({
  success: ok,
  data: batchResultRow.omit({ title: true }).extend({ document: storedDocument }),
});
export const crawlResultResponse = z.strictObject({
  success: ok,
  data: crawlResultRow.omit({ title: true }).extend({ document: storedDocument }),
});

export const dashboardSessionResponse = z.strictObject({
  success: ok,
  data: z.strictObject({
    accountId: z.uuid(),
    keyId: z.uuid(),
    keyPrefix: z.string(),
    csrfToken: z.string().describe('send as X-CSRF-Token on every call that changes something'),
    expiresAt: timestamp,
  }),
});

export const signOutResponse = z.strictObject({ success: ok });
