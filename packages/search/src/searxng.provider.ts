import { SearchProviderError } from '@wcs/errors';
import { z } from 'zod';
import { excerpt, type ProviderResponse, providerGet } from './provider-http';
import { type SearchHit, type SearchProvider, type SearchQuery, uniqueHits } from './search-provider';

// SearXNG's JSON API (GET /search?format=json). Only the fields we use are checked; results that
// lack a URL are skipped one by one instead of failing the whole answer.
const searxngResponse = z.object({
  results: z.array(z.unknown()),
  unresponsive_engines: z.array(z.unknown()).optional(),
});
const searxngResult = z.object({
  url: z.string().min(1),
  title: z.string().nullish(),
  content: z.string().nullish(),
});

export interface SearxngOptions {
  /** SEARXNG_URL: the instance's base URL (a sub-path like http://host/searx/ works). */
  baseUrl: string;
  /** Budget for all pages of one search. */
  timeoutMs: number;
  /** Result pages asked for at most (SearXNG gives ~10 per page). */
  maxPages?: number;
}

/** SearXNG `language`: "de-CH" when both are known, "de" alone; a country alone is not expressible. */
export function searxngLanguage(lang?: string, country?: string): string | undefined {
  if (!lang) return undefined;
  if (lang.includes('-') || !country) return lang;
  return `${lang.toLowerCase()}-${country.toUpperCase()}`;
}

export class SearxngProvider implements SearchProvider {
  readonly name = 'searxng';
  private readonly base: URL;
  private readonly describe: string;

  constructor(private readonly o: SearxngOptions) {
    this.base = new URL(o.baseUrl.endsWith('/') ? o.baseUrl : `${o.baseUrl}/`);
    this.describe = `SearXNG at SEARXNG_URL=${o.baseUrl}`;
  }

  async search(q: SearchQuery, signal?: AbortSignal): Promise<SearchHit[]> {
    const deadline = Date.now() + this.o.timeoutMs;
    const maxPages = this.o.maxPages ?? 3;
    let hits: SearchHit[] = [];
    let unresponsive: unknown[] = [];
    for (let pageno = 1; pageno <= maxPages && hits.length < q.numResults; pageno++) {
      const remaining = deadline - Date.now();
      // Later pages are a bonus: when time is up, answer with what we have.
      if (remaining <= 0 && pageno > 1) break;
      const page = await this.page(q, pageno, Math.max(1, remaining), signal);
      unresponsive = page.unresponsive;
      const before = hits.length;
      hits = uniqueHits([...hits, ...page.hits], q.numResults);
      if (page.hits.length === 0 || hits.length === before) break;
    }
    if (hits.length === 0 && unresponsive.length > 0) {
      // An empty answer because every engine failed is an error, not "nothing found".
      throw new SearchProviderError(
        `${this.describe} returned no results; its engines did not answer: ${excerpt(JSON.stringify(unresponsive), 300)}`,
      );
    }
    return hits;
  }

  private async page(
    q: SearchQuery,
    pageno: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ hits: SearchHit[]; unresponsive: unknown[] }> {
    const url = new URL('search', this.base);
    url.searchParams.set('q', q.query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageno', String(pageno));
    const language = searxngLanguage(q.lang, q.country);
    if (language) url.searchParams.set('language', language);
    const res = await providerGet(url, { timeoutMs, signal, describe: this.describe });
    const body = this.check(res);
    const hits: SearchHit[] = [];
    for (const raw of body.results) {
      const r = searxngResult.safeParse(raw);
      if (r.success)
        hits.push({ url: r.data.url, title: r.data.title ?? '', description: r.data.content ?? '' });
    }
    return { hits, unresponsive: body.unresponsive_engines ?? [] };
  }

  private check(res: ProviderResponse): z.infer<typeof searxngResponse> {
    const d = this.describe;
    if (res.status === 403) {
      throw new SearchProviderError(
        `${d} refused format=json (HTTP 403): enable "json" under search.formats in its settings.yml`,
        { retryable: false },
      );
    }
    if (res.status === 404) {
      throw new SearchProviderError(
        `${d} has no /search endpoint (HTTP 404): SEARXNG_URL must be the base URL of a SearXNG instance`,
        { retryable: false },
      );
    }
    if (res.status === 429) {
      throw new SearchProviderError(
        `${d} rate-limited this service (HTTP 429): turn off its bot limiter (server.limiter) for API clients`,
      );
    }
    if (res.status >= 400) {
      throw new SearchProviderError(`${d} answered HTTP ${res.status}: ${excerpt(res.text)}`);
    }
    if (res.json === undefined) {
      throw new SearchProviderError(
        `${d} did not answer JSON (${res.contentType || 'no content type'}: ${excerpt(res.text, 80)}); is SEARXNG_URL a SearXNG instance?`,
        { retryable: false },
      );
    }
    const parsed = searxngResponse.safeParse(res.json);
    if (!parsed.success) {
      throw new SearchProviderError(
        `${d} answered JSON that is not a SearXNG search response (no "results" list)`,
        {
          retryable: false,
        },
      );
    }
    return parsed.data;
  }
}
