import type { DocumentsRepository } from '@wcs/db';
import { SearchProviderError, ServiceError } from '@wcs/errors';
import type { PendingIndexReader } from './pending-index';
import type { SearchHit, SearchProvider, SearchQuery } from './search-provider';

/**
 * The default provider: PostgreSQL full-text search over the pages this service has scraped,
 * crawled or monitored for the calling account (never another account's). Needs no network and
 * no settings. `lang` picks the text-search configuration; `country` has no meaning here.
 * With `pending`, a search first waits (at most `indexWaitMs`) for the account's pages that were
 * reported before it started but are not written yet (pending-index.ts), so it finds them.
 */
export class EmbeddedProvider implements SearchProvider {
  readonly name = 'embedded';

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly o: { timeoutMs: number; indexWaitMs?: number; pending?: PendingIndexReader },
  ) {}

  async search(q: SearchQuery, signal?: AbortSignal): Promise<SearchHit[]> {
    signal?.throwIfAborted();
    // Best effort: past the bound (or without Redis) the search runs over what is written.
    if (this.o.pending && (this.o.indexWaitMs ?? 0) > 0)
      await this.o.pending.settled(q.accountId, this.o.indexWaitMs ?? 0, signal).catch(() => false);
    signal?.throwIfAborted();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new SearchProviderError(`Full-text search did not answer within ${this.o.timeoutMs} ms`)),
        this.o.timeoutMs,
      );
    });
    try {
      const rows = await Promise.race([
        this.documents.search({
          accountId: q.accountId,
          query: q.query,
          limit: q.numResults,
          ...(q.lang ? { lang: q.lang } : {}),
        }),
        late,
      ]);
      return rows.map((r) => ({
        url: r.url,
        title: r.title ?? '',
        // The passage around the match is the better description; the page's own otherwise.
        description: r.snippet || r.description || '',
        stored: { markdown: r.markdown, language: r.language, updatedAt: r.updatedAt.toISOString() },
      }));
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      throw new SearchProviderError('Full-text search over stored pages failed (PostgreSQL)', { cause: err });
    } finally {
      clearTimeout(timer);
    }
  }
}
