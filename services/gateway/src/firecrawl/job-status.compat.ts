/**
 * Crawl and batch status in Firecrawl's shape, shared by the v1 and v2 compat routes:
 * `{ success, status, completed, total, creditsUsed, expiresAt, next?, data }`. `data` holds the
 * documents of done pages/items in a stable order, cut by count (`limit`) and by size like
 * Firecrawl's (~10 MB of JSON); `next` is the full URL of the following page, present only while
 * more documents exist right now, so the SDKs' "follow next" loops always end.
 */
import type { BatchWithItems, CrawlView } from '@wcs/db';
import { ValidationError } from '@wcs/errors';
import type { DocumentData } from '@wcs/queues';
import type { Request } from 'express';
import { z } from 'zod';
import { toFirecrawlDocument } from './document.compat';

export type FirecrawlJobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

/**
 * Results are readable for as long as the job exists; Firecrawl clients expect a date, so we
 * promise 24 h after the job finished (or, while it runs, after it started).
 */
export const RESULT_TTL_MS = 24 * 3600 * 1000;

/** Firecrawl cuts a status page at ~10 MB of documents. */
export const MAX_STATUS_PAGE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_STATUS_PAGE_LIMIT = 100;
export const MAX_STATUS_PAGE_LIMIT = 1_000;

const statusPageQuery = z.object({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_STATUS_PAGE_LIMIT).default(DEFAULT_STATUS_PAGE_LIMIT),
});
export type StatusPageQuery = z.infer<typeof statusPageQuery>;

export function parseStatusPageQuery(query: unknown): StatusPageQuery {
  const q = statusPageQuery.safeParse(query);
  if (!q.success) {
    throw new ValidationError(
      `skip and limit must be non-negative integers (1 ≤ limit ≤ ${MAX_STATUS_PAGE_LIMIT})`,
      { details: { field: 'skip' } },
    );
  }
  return q.data;
}

/** pending/processing → scraping; done → completed; failed → cancelled when the caller stopped it. */
export function crawlStatusOf(c: Pick<CrawlView, 'status' | 'stopReason'>): FirecrawlJobStatus {
  if (c.status === 'done') return 'completed';
  if (c.status === 'failed') return c.stopReason === 'cancelled' ? 'cancelled' : 'failed';
  return 'scraping';
}

/** A batch never fails as a whole (its items do); one the caller cancelled reads `cancelled`. */
export function batchStatusOf(b: Pick<BatchWithItems, 'status' | 'cancelled'>): FirecrawlJobStatus {
  if (b.status !== 'done') return 'scraping';
  return b.cancelled ? 'cancelled' : 'completed';
}

export function expiresAtOf(createdAt: Date, finishedAt: Date | null): string {
  return new Date((finishedAt ?? createdAt).getTime() + RESULT_TTL_MS).toISOString();
}

/**
 * The absolute URL of a compat path (`/v2/crawl/…`) as the caller reached this router. Behind a
 * TLS-terminating proxy the gateway sees http, so a forwarded `X-Forwarded-Proto` of http/https is
 * used for the scheme: the URL only goes back to the caller who sent the header.
 */
export function compatUrl(req: Request, path: string): string {
  const forwarded = req.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : req.protocol;
  return `${scheme}://${req.get('host') ?? 'localhost'}${req.baseUrl}${path}`;
}

export interface StatusPage {
  data: Record<string, unknown>[];
  /** The skip of the next page, or null when the page reached the last document available now. */
  nextSkip: number | null;
}

/**
 * Convert documents in order until `limit` or the size budget is reached; the first one always
 * goes in (one document larger than the budget still has to be delivered). `available` is how
 * many documents exist from `skip` on right now.
 */
export function cutStatusPage<T>(
  rows: readonly T[],
  toDocument: (row: T) => Record<string, unknown>,
  o: { skip: number; available: number; maxBytes?: number },
): StatusPage {
  const budget = o.maxBytes ?? MAX_STATUS_PAGE_BYTES;
  const data: Record<string, unknown>[] = [];
  let bytes = 0;
  for (const row of rows) {
    const doc = toDocument(row);
    const size = Buffer.byteLength(JSON.stringify(doc), 'utf8');
    if (data.length > 0 && bytes + size > budget) break;
    data.push(doc);
    bytes += size;
  }
  const reached = o.skip + data.length;
  return { data, nextSkip: reached < o.available && data.length > 0 ? reached : null };
}

/** The status body both versions share; `next` only when there is more to read now. */
export function statusBody(s: {
  status: FirecrawlJobStatus;
  completed: number;
  total: number;
  creditsUsed: number;
  expiresAt: string;
  page: StatusPage;
  nextUrl: (skip: number) => string;
  error?: string | null;
}): Record<string, unknown> {
  return {
    success: true,
    status: s.status,
    completed: s.completed,
    total: s.total,
    creditsUsed: s.creditsUsed,
    expiresAt: s.expiresAt,
    ...(s.page.nextSkip !== null ? { next: s.nextUrl(s.page.nextSkip) } : {}),
    data: s.page.data,
    ...(s.error && s.status === 'failed' ? { error: s.error } : {}),
  };
}

/**
 * A stored page/item result (the native document the worker saved) as a Firecrawl document. A
 * result without metadata (never written by the current workers) still gets the fields the
 * clients read.
 */
export function storedDocument(result: unknown, fallback: { url: string; statusCode?: number | null }) {
  const r = result as Partial<DocumentData> | null;
  if (r && typeof r === 'object' && r.metadata && typeof r.metadata === 'object') {
    return toFirecrawlDocument(r as DocumentData) as unknown as Record<string, unknown>;
  }
  return {
    metadata: { sourceURL: fallback.url, url: fallback.url, statusCode: fallback.statusCode ?? 200 },
  };
}
