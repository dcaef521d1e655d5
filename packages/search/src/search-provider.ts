import { urlKey } from '@wcs/discovery';

/** What every search provider is asked. */
export interface SearchQuery {
  query: string;
  numResults: number;
  /** ISO 3166-1 alpha-2 ("us", "de"); providers that cannot use it ignore it. */
  country?: string;
  /** ISO 639-1 ("en") or a BCP 47 tag ("pt-BR"). */
  lang?: string;
  /** The caller; the embedded provider searches only this account's pages. */
  accountId: string;
}

/** One result, before its page is scraped. */
export interface SearchHit {
  url: string;
  title: string;
  description: string;
  /** The embedded provider's stored copy: served as is unless the caller asks for a fresh scrape. */
  stored?: { markdown: string; language: string | null; updatedAt: string };
}

/**
 * A source of search results (SearXNG, Brave, the embedded full-text index). Failures are
 * SearchProviderError (502) with a message naming the setting to check; never an empty success.
 */
export interface SearchProvider {
  name: string;
  search(q: SearchQuery, signal?: AbortSignal): Promise<SearchHit[]>;
}

/** Keep the first hit per URL key (`urlKey`: never merges `/a/` with `/a`), http(s) only, at most `n`. */
export function uniqueHits(hits: Iterable<SearchHit>, n: number): SearchHit[] {
  const seen = new Set<string>();
  const out: SearchHit[] = [];
  for (const h of hits) {
    if (out.length >= n) break;
    const key = urlKey(h.url);
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    out.push({ ...h, title: h.title.trim(), description: h.description.trim() });
  }
  return out;
}
