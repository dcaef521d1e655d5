import { SearchProviderError } from '@wcs/errors';
import { z } from 'zod';
import { excerpt, type ProviderResponse, providerGet } from './provider-http';
import { type SearchHit, type SearchProvider, type SearchQuery, uniqueHits } from './search-provider';

export const BRAVE_DEFAULT_BASE_URL = 'https://api.search.brave.com/res/v1';
/** Brave's own limits: 20 results per request, queries up to 400 characters. */
const BRAVE_MAX_COUNT = 20;
const BRAVE_MAX_QUERY = 400;

const braveResponse = z.object({
  web: z.object({ results: z.array(z.unknown()) }).optional(),
});
const braveResult = z.object({
  url: z.string().min(1),
  title: z.string().nullish(),
  description: z.string().nullish(),
});
const braveError = z.object({
  error: z.object({ code: z.string().optional(), detail: z.string().optional() }),
});

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Brave marks matches with <strong> and escapes entities; results are plain text here. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** Brave's `search_lang` codes differ from ISO for a few languages (jp, zh-hans, pt-br, en-gb). */
export function braveSearchLang(lang: string): string {
  const [primary = '', region = ''] = lang.toLowerCase().replace(/_/g, '-').split('-');
  if (primary === 'ja') return 'jp';
  if (primary === 'zh')
    return region === 'tw' || region === 'hk' || region === 'hant' ? 'zh-hant' : 'zh-hans';
  if (primary === 'pt') return region === 'br' ? 'pt-br' : 'pt-pt';
  if (primary === 'en' && region === 'gb') return 'en-gb';
  return primary;
}

export interface BraveOptions {
  apiKey: string;
  /** BRAVE_BASE_URL (defaults to the public API). */
  baseUrl?: string;
  timeoutMs: number;
}

/** Brave Search API (web search), authenticated with X-Subscription-Token. */
export class BraveProvider implements SearchProvider {
  readonly name = 'brave';
  private readonly base: URL;
  private readonly describe: string;

  constructor(private readonly o: BraveOptions) {
    const base = o.baseUrl ?? BRAVE_DEFAULT_BASE_URL;
    this.base = new URL(base.endsWith('/') ? base : `${base}/`);
    this.describe = `Brave Search API at BRAVE_BASE_URL=${base}`;
  }

  async search(q: SearchQuery, signal?: AbortSignal): Promise<SearchHit[]> {
    const url = new URL('web/search', this.base);
    url.searchParams.set('q', q.query.slice(0, BRAVE_MAX_QUERY));
    url.searchParams.set('count', String(Math.min(BRAVE_MAX_COUNT, Math.max(1, q.numResults))));
    if (q.country) url.searchParams.set('country', q.country.toUpperCase());
    if (q.lang) url.searchParams.set('search_lang', braveSearchLang(q.lang));
    const res = await providerGet(url, {
      headers: { 'x-subscription-token': this.o.apiKey },
      timeoutMs: this.o.timeoutMs,
      signal,
      describe: this.describe,
    });
    const body = this.check(res);
    const hits: SearchHit[] = [];
    for (const raw of body.web?.results ?? []) {
      const r = braveResult.safeParse(raw);
      if (!r.success) continue;
      hits.push({
        url: r.data.url,
        title: plainText(r.data.title ?? ''),
        description: plainText(r.data.description ?? ''),
      });
    }
    return uniqueHits(hits, q.numResults);
  }

  private check(res: ProviderResponse): z.infer<typeof braveResponse> {
    const d = this.describe;
    const err = braveError.safeParse(res.json);
    const detail = err.success
      ? [err.data.error.code, err.data.error.detail].filter(Boolean).join(': ')
      : excerpt(res.text);
    if (
      res.status === 401 ||
      res.status === 403 ||
      (err.success && /TOKEN/i.test(err.data.error.code ?? ''))
    ) {
      throw new SearchProviderError(`${d} rejected BRAVE_API_KEY (HTTP ${res.status}: ${detail})`, {
        retryable: false,
      });
    }
    if (res.status === 429) {
      throw new SearchProviderError(
        `${d}: the rate limit or quota of this BRAVE_API_KEY is reached (HTTP 429)`,
      );
    }
    if (res.status >= 400) {
      throw new SearchProviderError(`${d} answered HTTP ${res.status}: ${detail}`, {
        retryable: res.status >= 500,
      });
    }
    const parsed = res.json === undefined ? null : braveResponse.safeParse(res.json);
    if (!parsed?.success) {
      throw new SearchProviderError(`${d} did not answer a web search response (${excerpt(res.text, 80)})`, {
        retryable: false,
      });
    }
    return parsed.data;
  }
}
