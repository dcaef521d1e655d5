import type { Db } from './db';
import { Prisma } from './generated/prisma/client';
import { linksOf, type PageHistoryLink, storedLinks } from './page-history-links';
import { sqlClient, toJsonb } from './sql-client';

export type { PageHistoryLink } from './page-history-links';

/** One page's latest tracked scrape (structurally @wcs/scraper's ChangeRecord). */
export interface PageHistoryRecord {
  accountId: string;
  urlKey: string;
  /** '' when the scrape named no tag. */
  tag: string;
  url: string;
  /** '' for a removed page (404/410). */
  markdown: string;
  contentHash: string;
  statusCode: number;
  etag: string | null;
  lastModified: string | null;
  /** The document's metadata when it was stored (null for rows written before it was kept). */
  metadata?: Record<string, unknown> | null;
  /** The links a crawl read from the page (null: none read, e.g. a scrape's row). */
  links?: PageHistoryLink[] | null;
  /** How the markdown was made (structurally @wcs/scraper's historyVariant); '' when unknown. */
  variant?: string;
  scrapedAt: Date;
}

/** A `page_history` row as read (its columns under the record's names; jsonb parsed). */
export type PageHistoryRow = Omit<PageHistoryRecord, 'links' | 'metadata'> & {
  metadata: unknown;
  links: unknown;
};

/** The record of a row. */
export function historyRecordOf(row: PageHistoryRow): PageHistoryRecord {
  const { metadata, links, ...rest } = row;
  return {
    ...rest,
    metadata: metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>) : null,
    links: linksOf(links),
  };
}

/** Each column of page_history and its name in the record. */
const HISTORY_COLUMNS: ReadonlyArray<[column: string, name: keyof PageHistoryRow]> = [
  ['account_id', 'accountId'],
  ['url_key', 'urlKey'],
  ['tag', 'tag'],
  ['url', 'url'],
  ['markdown', 'markdown'],
  ['content_hash', 'contentHash'],
  ['status_code', 'statusCode'],
  ['etag', 'etag'],
  ['last_modified', 'lastModified'],
  ['metadata', 'metadata'],
  ['links', 'links'],
  ['variant', 'variant'],
  ['scraped_at', 'scrapedAt'],
];

/** The select list of a row `h` under the record's names. */
const HISTORY_SELECT = HISTORY_COLUMNS.map(([c, n]) => `h.${c} AS "${n}"`).join(', ');

/**
 * The select list of a row `h` of page_history read beside another table's row in one statement,
 * each column named `history.<name>`: `splitHistoryBeside` maps them. Columns rather than one json
 * value: built as json, the markdown is escaped by PostgreSQL and unescaped again by the client
 * (~0.1 ms of PostgreSQL's time a row of a real page).
 */
const BESIDE_PREFIX = 'history.';
export const HISTORY_BESIDE = HISTORY_COLUMNS.map(([c, n]) => `h.${c} AS "${BESIDE_PREFIX}${n}"`).join(', ');

/**
 * A row read with HISTORY_BESIDE, split in one pass: the statement's own columns, and the history
 * row's record (null when the statement found no history row).
 */
export function splitHistoryBeside<T>(row: Record<string, unknown>): {
  own: T;
  history: PageHistoryRecord | null;
} {
  const own: Record<string, unknown> = {};
  const history: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith(BESIDE_PREFIX)) history[name.slice(BESIDE_PREFIX.length)] = value;
    else own[name] = value;
  }
  return {
    own: own as T,
    history: history.urlKey == null ? null : historyRecordOf(history as PageHistoryRow),
  };
}

/**
 * The `changeTracking` format's history (`page_history`): the latest scrape per account, URL key
 * and tag. Implements @wcs/scraper's ChangeHistoryStore; the retention sweep purges it.
 */
export class PageHistoryRepository {
  constructor(private readonly db: Db) {}

  async get(accountId: string, urlKey: string, tag: string): Promise<PageHistoryRecord | undefined> {
    return (await this.getMany(accountId, [urlKey], tag)).get(urlKey);
  }

  /**
   * The rows of many URL keys of one account and tag at once (a recrawl that trusts the sitemap's
   * lastmod reads its seeds' rows in chunks), by URL key; keys without a row are absent.
   */
  async getMany(accountId: string, urlKeys: string[], tag: string): Promise<Map<string, PageHistoryRecord>> {
    const found = new Map<string, PageHistoryRecord>();
    if (urlKeys.length === 0) return found;
    // Straight through pg (sql-client.ts): a tracked crawl page reads its row once per visit.
    const rows = await sqlClient(this.db).$queryRaw<PageHistoryRow[]>`
      SELECT ${Prisma.raw(HISTORY_SELECT)} FROM page_history h
      WHERE h.account_id = ${accountId}::uuid AND h.url_key = ANY(${urlKeys}::text[]) AND h.tag = ${tag}`;
    for (const row of rows) found.set(row.urlKey, historyRecordOf(row));
    return found;
  }

  /**
   * Store the scrape as the page's latest; a row scraped later (a concurrent scrape that finished
   * first with a newer copy) is kept.
   */
  async put(r: PageHistoryRecord): Promise<void> {
    await sqlClient(this.db).$executeRaw`
      INSERT INTO page_history (account_id, url_key, tag, url, markdown, content_hash, status_code,
                                etag, last_modified, metadata, links, variant, scraped_at)
      VALUES (${r.accountId}::uuid, ${r.urlKey}, ${r.tag}, ${r.url}, ${r.markdown}, ${r.contentHash},
              ${r.statusCode}, ${r.etag}, ${r.lastModified},
              ${r.metadata ? toJsonb(r.metadata) : null}::jsonb,
              ${r.links ? toJsonb(storedLinks(r.links)) : null}::jsonb, ${r.variant ?? ''}, ${r.scrapedAt})
      ON CONFLICT (account_id, url_key, tag) DO UPDATE SET
        url = EXCLUDED.url, markdown = EXCLUDED.markdown, content_hash = EXCLUDED.content_hash,
        status_code = EXCLUDED.status_code, etag = EXCLUDED.etag,
        last_modified = EXCLUDED.last_modified, metadata = EXCLUDED.metadata,
        links = EXCLUDED.links, variant = EXCLUDED.variant, scraped_at = EXCLUDED.scraped_at
      WHERE page_history.scraped_at <= EXCLUDED.scraped_at`;
  }

  /**
   * The site confirmed the row's copy current (a 304): only its validators (when the 304 sent
   * new ones) and time change — the markdown, metadata and links are not written again. A row
   * replaced since `was` (a concurrent scrape stored a newer copy) is left alone.
   */
  async touch(
    key: { accountId: string; urlKey: string; tag: string },
    was: Date,
    next: { etag: string | null; lastModified: string | null; scrapedAt: Date },
  ): Promise<void> {
    await sqlClient(this.db).$executeRaw`
      UPDATE page_history
         SET etag = COALESCE(${next.etag}, etag),
             last_modified = COALESCE(${next.lastModified}, last_modified),
             scraped_at = ${next.scrapedAt}
       WHERE account_id = ${key.accountId}::uuid AND url_key = ${key.urlKey} AND tag = ${key.tag}
         AND scraped_at = ${was}`;
  }

  /** `touch` of many rows in one statement; each row is matched on its key and stored time. */
  async touchMany(touches: PageHistoryTouch[]): Promise<void> {
    if (touches.length === 0) return;
    await sqlClient(this.db).$executeRaw(touchStatement(touches));
  }

  /** Delete rows scraped before `date` (the retention sweep: CHANGE_TRACKING_RETENTION_DAYS). */
  async purgeOlderThan(date: Date): Promise<number> {
    const r = await this.db.prisma.pageHistory.deleteMany({ where: { scrapedAt: { lt: date } } });
    return r.count;
  }
}

/** A 304's move of a row: its key, the time it was stored at, and its new time and validators. */
export type PageHistoryTouch = [
  key: { accountId: string; urlKey: string; tag: string },
  was: Date,
  next: { etag: string | null; lastModified: string | null; scrapedAt: Date },
];

/**
 * `touchMany`'s UPDATE: alone, or as a data-modifying CTE beside another statement (a crawl page's
 * completion writes its 304's touch in the completion's own statement). A row replaced since
 * `was` is left alone.
 */
export function touchStatement(touches: PageHistoryTouch[]): Prisma.Sql {
  return Prisma.sql`
      UPDATE page_history h
         SET etag = COALESCE(t.etag, h.etag),
             last_modified = COALESCE(t.last_modified, h.last_modified),
             scraped_at = t.scraped_at
        FROM unnest(${touches.map(([k]) => k.accountId)}::text[]::uuid[],
                    ${touches.map(([k]) => k.urlKey)}::text[], ${touches.map(([k]) => k.tag)}::text[],
                    ${touches.map(([, was]) => was.toISOString())}::text[]::timestamptz[],
                    ${touches.map(([, , n]) => n.etag)}::text[], ${touches.map(([, , n]) => n.lastModified)}::text[],
                    ${touches.map(([, , n]) => n.scrapedAt.toISOString())}::text[]::timestamptz[])
          AS t(account_id, url_key, tag, was, etag, last_modified, scraped_at)
       WHERE h.account_id = t.account_id AND h.url_key = t.url_key AND h.tag = t.tag
         AND h.scraped_at = t.was`;
}
