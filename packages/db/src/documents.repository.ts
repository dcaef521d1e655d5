import type { Db } from './db';
import { isUuid } from './ids';
import { sqlClient } from './sql-client';
import { primaryLanguage, SIMPLE_CONFIG, textSearchConfigFor } from './text-search-config';

export { primaryLanguage, textSearchConfigFor } from './text-search-config';

/** A page as scraped, crawled or checked by a monitor, indexed for its account. */
export interface DocumentInput {
  accountId: string;
  /** Where the page was found (final URL after redirects when known); unique per account. */
  url: string;
  title?: string | null;
  description?: string | null;
  markdown: string;
  /** BCP 47 tag from the page ("en", "de-AT"); chooses the text-search configuration. */
  language?: string | null;
}

export interface DocumentSearchQuery {
  accountId: string;
  /** Web-search syntax: words, "quoted phrases", OR, -excluded (websearch_to_tsquery). */
  query: string;
  /** ISO 639-1 code: the query is stemmed for that language and pages in other languages are left out. */
  lang?: string;
  limit: number;
}

export interface DocumentSearchHit {
  url: string;
  title: string | null;
  /** The page's own meta description. */
  description: string | null;
  /** Passages around the matched words (ts_headline), plain text. */
  snippet: string;
  rank: number;
  language: string | null;
  updatedAt: Date;
  /** The stored copy of the page (markdown of its main content when it was last seen). */
  markdown: string;
}

/** A page ready to write: cleaned fields and the text-search configuration it is indexed with. */
interface DocumentRow {
  accountId: string;
  url: string;
  title: string | null;
  description: string | null;
  language: string | null;
  markdown: string;
  searchConfig: string;
}

const isTooLongForTsvector = (err: unknown): boolean => /too long for tsvector/i.test(String(err));

/** Body text indexed per page; beyond it a page is still found by its beginning, title and description. */
export const MAX_INDEXED_CHARS = 1_000_000;
/** Retry size when a page has so many distinct words that its tsvector would exceed PostgreSQL's 1 MB. */
const FALLBACK_INDEXED_CHARS = 100_000;
/** Text ts_headline reads per hit: snippets come from the first part of long pages (keeps search fast). */
const HEADLINE_CHARS = 20_000;
const HEADLINE_OPTIONS =
  'MaxFragments=2, MaxWords=30, MinWords=12, FragmentDelimiter=" … ", StartSel="", StopSel=""';
// Link targets and markdown punctuation are noise in snippets: `[text](url)` → `text`.
const MD_LINK_PATTERN = '!?\\[([^\\]]*)\\]\\([^)]*\\)';
const MD_NOISE_PATTERN = '[#*_>|`~]+|\\s+';

// PostgreSQL text cannot hold NUL characters; pages occasionally contain them.
const NUL = String.fromCharCode(0);

const clean = (s: string | null | undefined, max: number): string | null => {
  const v = s?.replaceAll(NUL, '').trim();
  return v ? v.slice(0, max) : null;
};

/** Markdown → the words worth indexing (link and image targets dropped, NULs removed, capped). */
export function indexableText(markdown: string, maxChars = MAX_INDEXED_CHARS): string {
  return markdown
    .slice(0, maxChars * 2)
    .replaceAll(NUL, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .slice(0, maxChars);
}

/**
 * The full-text index behind the embedded search provider: one row per (account, url) in
 * `documents`, with `search_vector` computed in SQL — title weighted A, description B, body C —
 * using the page language's configuration. Every query is scoped to one account.
 */
export class DocumentsRepository {
  private configs: Promise<Set<string>> | null = null;

  constructor(private readonly db: Db) {}

  /** Insert or refresh a page; returns the text-search configuration it was indexed with. */
  async upsert(doc: DocumentInput): Promise<{ searchConfig: string }> {
    const [row] = await this.rows([doc]);
    if (!row) throw new Error('unreachable: one document in, one row out');
    try {
      await this.write([row], MAX_INDEXED_CHARS);
    } catch (err) {
      if (!isTooLongForTsvector(err)) throw err;
      await this.write([row], FALLBACK_INDEXED_CHARS);
    }
    return { searchConfig: row.searchConfig };
  }

  /**
   * Insert or refresh many pages in one statement (the search indexer's backlog): one round trip
   * instead of one per page. The last of several inputs for the same (account, url) wins. When the
   * statement fails, each page is written on its own, so one bad page (an invalid account id, a
   * body too large for a tsvector) neither fails the others nor goes unreported: the result lists
   * the pages that could not be written, with their error.
   */
  async upsertMany(docs: DocumentInput[]): Promise<Array<{ doc: DocumentInput; err: unknown }>> {
    const latest = new Map<string, DocumentInput>();
    for (const d of docs) latest.set(`${d.accountId} ${d.url}`, d);
    const unique = [...latest.values()];
    if (unique.length === 0) return [];
    if (unique.length > 1 && unique.every((d) => isUuid(d.accountId))) {
      try {
        await this.write(await this.rows(unique), MAX_INDEXED_CHARS);
        return [];
      } catch {
        // Written one by one below: each page gets its own fallback and its own error.
      }
    }
    const failed: Array<{ doc: DocumentInput; err: unknown }> = [];
    for (const doc of unique) {
      try {
        await this.upsert(doc);
      } catch (err) {
        failed.push({ doc, err });
      }
    }
    return failed;
  }

  /** Validated, cleaned rows with each page's text-search configuration. */
  private async rows(docs: DocumentInput[]): Promise<DocumentRow[]> {
    const rows: DocumentRow[] = [];
    for (const doc of docs) {
      if (!isUuid(doc.accountId)) throw new Error(`Invalid account id ${doc.accountId}`);
      rows.push({
        accountId: doc.accountId,
        url: doc.url,
        title: clean(doc.title, 1_000),
        description: clean(doc.description, 5_000),
        language: clean(doc.language, 35),
        markdown: doc.markdown.replaceAll(NUL, ''),
        searchConfig: await this.availableConfig(textSearchConfigFor(doc.language)),
      });
    }
    return rows;
  }

  /** One statement for all rows (unnest of one array per column; a constant text, so prepared once). */
  private async write(rows: DocumentRow[], maxChars: number): Promise<void> {
    const col = <K extends keyof DocumentRow>(k: K) => rows.map((r) => r[k]);
    const bodies = rows.map((r) => indexableText(r.markdown, maxChars));
    await sqlClient(this.db).$executeRaw`
      INSERT INTO documents (account_id, url, title, description, markdown, language, search_config,
                             search_vector, updated_at)
      SELECT t.account_id, t.url, t.title, t.description, t.markdown, t.language, t.config,
             setweight(to_tsvector(t.config::regconfig, coalesce(t.title, '')), 'A') ||
             setweight(to_tsvector(t.config::regconfig, coalesce(t.description, '')), 'B') ||
             setweight(to_tsvector(t.config::regconfig, t.body), 'C'),
             now()
      FROM unnest(${col('accountId')}::uuid[], ${col('url')}::text[], ${col('title')}::text[],
                  ${col('description')}::text[], ${col('markdown')}::text[], ${col('language')}::text[],
                  ${col('searchConfig')}::text[], ${bodies}::text[])
        AS t(account_id, url, title, description, markdown, language, config, body)
      ON CONFLICT (account_id, url) DO UPDATE SET
        title = EXCLUDED.title, description = EXCLUDED.description, markdown = EXCLUDED.markdown,
        language = EXCLUDED.language, search_config = EXCLUDED.search_config,
        search_vector = EXCLUDED.search_vector, updated_at = now()`;
  }

  /**
   * Best matches first (ts_rank_cd). Each configuration present in the account's corpus parses the
   * query its own way (an English page is matched by English stems, a German one by German stems),
   * so a mixed-language corpus is searchable without `lang`. With `lang`, only pages in that
   * language or of unknown language are searched.
   */
  async search(q: DocumentSearchQuery): Promise<DocumentSearchHit[]> {
    const query = q.query.replaceAll(NUL, '').trim();
    if (!isUuid(q.accountId) || !query) return [];
    const limit = Math.max(1, Math.min(100, Math.floor(q.limit)));
    const lang = q.lang ? primaryLanguage(q.lang) : null;
    // With a language: its configuration, plus `simple` for pages whose language was unknown.
    const configs = lang
      ? [...new Set([await this.availableConfig(textSearchConfigFor(lang)), SIMPLE_CONFIG])]
      : null;
    const rows = await this.db.prisma.$queryRaw<
      Array<{
        url: string;
        title: string | null;
        description: string | null;
        snippet: string | null;
        rank: number;
        language: string | null;
        updatedAt: Date;
        markdown: string;
      }>
    >`
      WITH cfgs AS (
        SELECT DISTINCT search_config AS cfg FROM documents
        WHERE account_id = ${q.accountId}::uuid
          AND (${configs === null} OR search_config = ANY(string_to_array(${(configs ?? []).join(',')}::text, ',')))
      ), q AS (
        SELECT cfg, websearch_to_tsquery(cfg::regconfig, ${query}::text) AS tsq FROM cfgs
      ), ranked AS (
        SELECT d.url, d.title, d.description, d.language, d.updated_at, d.markdown, q.cfg, q.tsq,
               ts_rank_cd(d.search_vector, q.tsq) AS rank
        FROM q JOIN documents d
          ON d.account_id = ${q.accountId}::uuid AND d.search_config = q.cfg AND d.search_vector @@ q.tsq
        WHERE ${lang}::text IS NULL OR d.language IS NULL
           OR lower(split_part(replace(d.language, '_', '-'), '-', 1)) = ${lang}::text
        ORDER BY rank DESC, d.updated_at DESC
        LIMIT ${limit}
      )
      SELECT url, title, description, language, updated_at AS "updatedAt", rank::float8 AS rank, markdown,
             ts_headline(cfg::regconfig,
               regexp_replace(regexp_replace(left(markdown, ${HEADLINE_CHARS}), ${MD_LINK_PATTERN}::text, ${'\\1'}::text, 'g'),
                              ${MD_NOISE_PATTERN}::text, ' ', 'g'),
               tsq, ${HEADLINE_OPTIONS}::text) AS snippet
      FROM ranked ORDER BY rank DESC, updated_at DESC`;
    return rows.map((r) => ({ ...r, snippet: (r.snippet ?? '').trim(), rank: Number(r.rank) }));
  }

  /** One indexed page of an account (null when absent). */
  async get(
    accountId: string,
    url: string,
  ): Promise<{ url: string; title: string | null; markdown: string; searchConfig: string } | null> {
    if (!isUuid(accountId)) return null;
    return this.db.prisma.document.findUnique({
      where: { accountId_url: { accountId, url } },
      select: { url: true, title: true, markdown: true, searchConfig: true },
    });
  }

  /** `config` if this PostgreSQL has it (older servers lack a few), else `simple`. */
  private async availableConfig(config: string): Promise<string> {
    this.configs ??= this.db.prisma.$queryRaw<
      Array<{ cfgname: string }>
    >`SELECT cfgname::text AS cfgname FROM pg_ts_config`
      .then((rows) => new Set(rows.map((r) => r.cfgname)))
      .catch((err: unknown) => {
        this.configs = null;
        throw err;
      });
    return (await this.configs).has(config) ? config : SIMPLE_CONFIG;
  }
}
