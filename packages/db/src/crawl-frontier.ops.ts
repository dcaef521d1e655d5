import { randomUUID } from 'node:crypto';
import type { CrawlStopReason, FrontierPage } from './crawl.types';
import type { Tx } from './db';

/**
 * Frontier bookkeeping inside a caller's transaction that already holds the crawl row's lock
 * (`lockCrawl`), so counting, capping and closing see a stable crawl.
 */

export interface LockedCrawl {
  status: string;
  accountId: string;
  maxPages: number;
  discovered: number;
}

export async function lockCrawl(tx: Tx, crawlId: string): Promise<LockedCrawl | null> {
  const rows = await tx.$queryRaw<LockedCrawl[]>`
    SELECT status, account_id AS "accountId", (options->>'maxPages')::int AS "maxPages", discovered
    FROM crawls WHERE id = ${crawlId}::uuid FOR UPDATE`;
  return rows[0] ?? null;
}

/**
 * Insert candidate URLs (already normalised, filtered and ordered by the caller) that are not yet
 * in the frontier, at most `room` of them. `capped` = some new URL was left out for lack of room.
 */
export async function insertFrontier(
  tx: Tx,
  crawlId: string,
  room: number,
  candidates: Array<{ url: string; depth: number }>,
): Promise<{ inserted: FrontierPage[]; capped: boolean }> {
  const unique = new Map<string, number>();
  for (const c of candidates) if (!unique.has(c.url)) unique.set(c.url, c.depth);
  if (unique.size === 0) return { inserted: [], capped: false };
  const urls = [...unique.keys()];
  const existing = await tx.$queryRaw<Array<{ url: string }>>`
    SELECT url FROM crawl_pages WHERE crawl_id = ${crawlId}::uuid AND url = ANY(${urls}::text[])`;
  const known = new Set(existing.map((e) => e.url));
  const fresh = urls.filter((u) => !known.has(u));
  const take = fresh.slice(0, Math.max(0, room));
  const capped = fresh.length > take.length;
  if (take.length === 0) return { inserted: [], capped };
  const ids = take.map(() => randomUUID());
  const depths = take.map((u) => unique.get(u) ?? 0);
  // ON CONFLICT is the safety net; the crawl row lock already keeps concurrent inserters apart.
  const inserted = await tx.$queryRaw<FrontierPage[]>`
    INSERT INTO crawl_pages (id, crawl_id, url, depth)
    SELECT t.id, ${crawlId}::uuid, t.url, t.depth
    FROM unnest(${ids}::text[]::uuid[], ${take}::text[], ${depths}::int[]) AS t(id, url, depth)
    ON CONFLICT (crawl_id, url) DO NOTHING
    RETURNING id AS "pageId", url, depth`;
  return { inserted, capped };
}

/**
 * Count a finished page and newly discovered ones; the crawl closes (`done`) when every page of the
 * frontier has finished. A capped frontier records `max_pages` now and keeps it as the reason.
 * SET expressions see the pre-update row. Returns true when this call closed the crawl.
 */
export async function bumpCrawl(
  tx: Tx,
  crawlId: string,
  d: { completed: number; failed: number; credits: number; discovered: number; capped: boolean },
): Promise<boolean> {
  const rows = await tx.$queryRaw<Array<{ status: string }>>`
    UPDATE crawls SET
      completed = completed + ${d.completed}::int,
      failed = failed + ${d.failed}::int,
      credits_used = credits_used + ${d.credits}::int,
      discovered = discovered + ${d.discovered}::int,
      stop_reason = CASE
        WHEN completed + failed + ${d.completed + d.failed}::int >= discovered + ${d.discovered}::int
          THEN COALESCE(CASE WHEN ${d.capped}::boolean THEN 'max_pages' END, stop_reason, 'completed')
        WHEN ${d.capped}::boolean THEN 'max_pages'
        ELSE stop_reason END,
      status = CASE
        WHEN completed + failed + ${d.completed + d.failed}::int >= discovered + ${d.discovered}::int
          THEN 'done' ELSE 'processing' END,
      finished_at = CASE
        WHEN completed + failed + ${d.completed + d.failed}::int >= discovered + ${d.discovered}::int
          THEN now() ELSE finished_at END,
      updated_at = now()
    WHERE id = ${crawlId}::uuid AND status = 'processing'
    RETURNING status`;
  return rows[0]?.status === 'done';
}

/** Fail a running crawl (guarded) and skip its unfinished pages; returns the skipped page ids. */
export async function stopCrawlInTx(
  tx: Tx,
  crawlId: string,
  reason: CrawlStopReason,
  error: string,
): Promise<string[]> {
  const stopped = await tx.$queryRaw<Array<{ id: string }>>`
    UPDATE crawls SET status = 'failed', stop_reason = ${reason}, error = ${error}, finished_at = now(),
           updated_at = now()
    WHERE id = ${crawlId}::uuid AND status IN ('pending', 'processing')
    RETURNING id`;
  if (stopped.length === 0) return [];
  const skipped = await tx.$queryRaw<Array<{ id: string }>>`
    UPDATE crawl_pages SET status = 'skipped', updated_at = now()
    WHERE crawl_id = ${crawlId}::uuid AND status IN ('queued', 'running')
    RETURNING id`;
  return skipped.map((s) => s.id);
}

/**
 * JSON for a jsonb column. PostgreSQL rejects NUL in text and jsonb, and scraped pages do contain it:
 * drop every `\u0000` escape (one not itself preceded by an escaping backslash).
 */
export function toJsonb(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1');
}
