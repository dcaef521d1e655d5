/** Shapes of the JSON the page reads (docs/dashboard/contract.md). Times are ISO 8601 strings. */

export interface SessionInfo {
  accountId: string;
  keyId: string;
  keyPrefix: string;
  csrfToken: string;
  expiresAt: string;
}

export interface Account {
  accountId: string;
  name: string | null;
  createdAt: string;
  balance: number;
  plan: { id: string; name: string; monthlyCredits: number; priceUsd: number | null };
  usedLast30Days: number;
  rateLimit: { limit: number; remaining: number; windowSeconds: number; resetsAt: string };
}

export const OPERATIONS = ['scrape', 'batch', 'crawl', 'map', 'search', 'extract', 'monitor'] as const;
export type Operation = (typeof OPERATIONS)[number];

export type UsageDay = { date: string; total: number } & Record<Operation, number>;

export interface Usage {
  from: string;
  to: string;
  operations: Operation[];
  days: UsageDay[];
  totals: Record<Operation | 'total', number>;
}

export interface LedgerRow {
  id: string;
  createdAt: string;
  reason: string;
  amount: number;
  reference: string | null;
  balanceAfter: number;
}

export interface ApiKeyRow {
  id: string;
  prefix: string;
  name: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  current: boolean;
}

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  name: string | null;
  createdAt: string;
}

export interface MonitorSummary {
  id: string;
  url: string;
  interval: string;
  status: string;
  createdAt: string;
  webhookUrl?: string | null;
  lastCheckAt: string | null;
  nextCheckAt: string | null;
  pausedBy?: 'user' | 'credits' | null;
}

export interface MonitorChange {
  id: string;
  detectedAt: string;
  hash: string;
  snapshot: string;
  /** The page before this change (the baseline for the first one); null/absent on older rows. */
  previousSnapshot?: string | null;
}

export interface WebhookDelivery {
  changeId: string;
  url: string;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error?: string | null;
}

export interface MonitorDetail extends MonitorSummary {
  checkCount: number;
  changes: MonitorChange[];
  webhookDeliveries: WebhookDelivery[];
}

export interface BatchSummary {
  id: string;
  status: string;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  createdAt: string;
  finishedAt: string | null;
}

export interface CrawlSummary {
  id: string;
  url: string;
  status: string;
  stopReason: string | null;
  discovered: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  createdAt: string;
  finishedAt: string | null;
}

/** GET /v1/crawl/:id (status object; `total` = pages in the frontier). */
export interface CrawlStatus {
  id: string;
  url: string;
  status: string;
  stopReason?: string | null;
  error?: string | null;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
}

/** GET /v1/batch/scrape/:id (status object). */
export interface BatchStatus {
  id: string;
  status: string;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
}

export interface BatchResultRow {
  itemId: string;
  position: number;
  url: string;
  status: string;
  title: string | null;
  error: string | null;
  code: string | null;
}

export interface CrawlResultRow {
  pageId: string;
  url: string;
  depth: number;
  status: string;
  statusCode: number | null;
  title: string | null;
  error: string | null;
  code: string | null;
}

export interface ScrapeDocument {
  markdown?: string;
  html?: string;
  text?: string;
  json?: unknown;
  metadata?: Record<string, unknown>;
}

export interface DocumentResult {
  url: string;
  status: string;
  error: string | null;
  code: string | null;
  document: ScrapeDocument | null;
}

/** A paged list answer: `{ success, total, data, next? }`. */
export interface Page<T> {
  total: number;
  data: T[];
  next?: string;
}
