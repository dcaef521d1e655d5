/**
 * Shapes of the JSON the page reads (docs/dashboard/contract.md). The API's response types are the
 * ones generated from /v1/openapi.json into the Node client (`packages/client-node/src/
 * api-responses.ts`, checked by tests/src/contract-drift.test.ts): one contract, not a second copy.
 * Type-only imports: nothing of the client reaches the bundle.
 */
export type {
  Account,
  ApiKeyInfo as ApiKeyRow,
  BatchResultRow,
  BatchStatus,
  BatchSummary,
  Capabilities,
  CrawlResultRow,
  CrawlStatus,
  CrawlSummary,
  CreatedKey,
  LedgerEntry as LedgerRow,
  MonitorChange,
  MonitorDetail,
  MonitorSummary,
  Usage,
  UsageDay,
  WebhookDelivery,
} from '@wcs/client-node';

/** GET /dashboard/api/session: the page's own endpoint (not wrapped by the client). */
export interface SessionInfo {
  accountId: string;
  keyId: string;
  keyPrefix: string;
  csrfToken: string;
  expiresAt: string;
}

/** The operations usage is split by (GET /v1/usage `operations`), in the chart's order. */
export const OPERATIONS = ['scrape', 'batch', 'crawl', 'map', 'search', 'extract', 'monitor'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface ScrapeDocument {
  markdown?: string;
  html?: string;
  text?: string;
  json?: unknown;
  metadata?: Record<string, unknown>;
  /** Set when the page was cut, or is not the site's content (a parked domain, a login wall…). */
  warning?: string;
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
