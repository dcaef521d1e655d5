/**
 * POST /firecrawl/v2/search and /firecrawl/v1/search on the native search. `limit` is
 * the native `num_results` (default 5, at most 20), `country`/`lang` pass through. Hits are
 * scraped only when `scrapeOptions` asks for a format (markdown, html), with `onlyMainContent`;
 * anything else search cannot honour (other sources, tbs, a free-text location, page options such
 * as actions) is a 400 naming the option. Billing is native: 2 credits per result returned.
 */
import { ValidationError } from '@wcs/errors';
import type { DocumentData } from '@wcs/queues';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { searchBody } from '../contract/search.request';
import type { GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';
import { type SearchResult, searchOperation } from '../routes/search.routes';
import { parseBody } from '../validation/parse-body';
import { toFirecrawlDocument } from './document.compat';
import { parseAs } from './field-names.compat';
import { REFUSED_SEARCH_OPTIONS } from './refused-options.compat';
import {
  type FirecrawlFormat,
  firecrawlScrapeOptionsV1,
  firecrawlScrapeOptionsV2,
  type TranslatedScrapeOptions,
  toNativePageFields,
  toNativePageFieldsV1,
} from './scrape-options.compat';

const common = {
  query: z.unknown(),
  limit: z.unknown().optional(),
  tbs: z.unknown().optional(),
  location: z.unknown().optional(),
  country: z.unknown().optional(),
  timeout: z.unknown().optional(),
  origin: z.string().optional(),
  integration: z.string().nullable().optional(),
};

export const firecrawlSearchBodyV2 = z.strictObject({
  ...common,
  sources: z.array(z.unknown(), { error: 'must be an array' }).optional(),
  categories: z.unknown().optional(),
  includeDomains: z.unknown().optional(),
  excludeDomains: z.unknown().optional(),
  ignoreInvalidURLs: z.boolean({ error: 'must be a boolean' }).optional(),
  highlights: z.boolean({ error: 'must be a boolean' }).optional(),
  enterprise: z.unknown().optional(),
  threatProtection: z.unknown().optional(),
  domainTools: z.unknown().optional(),
  toolDetail: z.unknown().optional(),
  scrapeOptions: firecrawlScrapeOptionsV2.optional(),
});

export const firecrawlSearchBodyV1 = z.strictObject({
  ...common,
  lang: z.unknown().optional(),
  filter: z.unknown().optional(),
  scrapeOptions: firecrawlScrapeOptionsV1.optional(),
});

function refuse(field: string, message: string): never {
  throw new ValidationError(`${field}: ${message}`, { details: { field } });
}

/** Present with a value that asks for something (null/false/[] ask for nothing). */
function given(v: unknown): boolean {
  return v !== undefined && v !== null && v !== false && !(Array.isArray(v) && v.length === 0);
}

/** What search does with the hits: not scraped, or scraped in markdown (+ html). */
interface HitScrape {
  scrape: boolean;
  format: 'markdown' | 'html';
  /** The `summary` format: each hit's summary by the extract model (native `summary: true`). */
  summary: boolean;
  onlyMainContent?: unknown;
  wanted: FirecrawlFormat[];
  /** The changeTracking format was asked for. */
  changeTracking?: boolean;
  /** Passed on for the native schema and rules to check (a 400 without the format). */
  changeTrackingOptions?: unknown;
}

/**
 * `scrapeOptions` → the native search's scrape switches. Formats empty (v1's default) means no
 * scrape; formats are markdown, html and summary only; page options other than onlyMainContent are refused.
 */
function hitScrape(
  raw: Record<string, unknown> | undefined,
  t: TranslatedScrapeOptions | undefined,
): HitScrape {
  if (!raw || !t || (Array.isArray(raw.formats) && raw.formats.length === 0))
    return { scrape: false, format: 'markdown', summary: false, wanted: [] };
  for (const [i, f] of t.wanted.entries()) {
    if (f !== 'markdown' && f !== 'html' && f !== 'changeTracking' && f !== 'summary')
      refuse(
        `scrapeOptions.formats.${i}`,
        `"${f}" is not supported by search (markdown, html, changeTracking and summary are)`,
      );
  }
  for (const name of Object.keys(t.page)) {
    // storeInCache: the hits' scrapes store as every scrape does (what Firecrawl's default asks);
    // proxy: the hits are fetched with the deployment's default (`auto`), as SDKs that send it expect.
    if (
      name !== 'formats' &&
      name !== 'onlyMainContent' &&
      name !== 'storeInCache' &&
      name !== 'proxy' &&
      name !== 'changeTrackingOptions'
    )
      refuse(`scrapeOptions.${name}`, 'is not supported by search (only formats and onlyMainContent)');
  }
  return {
    scrape: true,
    format: t.wanted.includes('html') ? 'html' : 'markdown',
    summary: t.wanted.includes('summary'),
    ...(raw.onlyMainContent !== undefined ? { onlyMainContent: raw.onlyMainContent } : {}),
    wanted: t.wanted,
    ...(t.wanted.includes('changeTracking') ? { changeTracking: true } : {}),
    ...(t.page.changeTrackingOptions !== undefined
      ? { changeTrackingOptions: t.page.changeTrackingOptions }
      : {}),
  };
}

function nativeSearch(body: { [K in keyof typeof common]?: unknown } & { lang?: unknown }, hits: HitScrape) {
  if (given(body.tbs)) refuse('tbs', 'time filters are not supported by this service');
  if (given(body.location))
    refuse('location', 'a free-text location is not supported; use country (ISO 3166-1, e.g. "de")');
  return parseAs(
    searchBody,
    {
      query: body.query,
      ...(body.limit !== undefined ? { num_results: body.limit } : {}),
      ...(body.country !== undefined ? { country: body.country } : {}),
      ...(body.lang !== undefined ? { lang: body.lang } : {}),
      ...(body.timeout !== undefined ? { timeout: body.timeout } : {}),
      scrape: hits.scrape,
      format: hits.format,
      ...(hits.summary ? { summary: true } : {}),
      ...(hits.onlyMainContent !== undefined ? { onlyMainContent: hits.onlyMainContent } : {}),
      ...(hits.changeTracking ? { changeTracking: true } : {}),
      ...(hits.changeTrackingOptions !== undefined
        ? { changeTrackingOptions: hits.changeTrackingOptions }
        : {}),
    },
    {
      num_results: 'limit',
      onlyMainContent: 'scrapeOptions.onlyMainContent',
      changeTrackingOptions: 'scrapeOptions.changeTrackingOptions',
    },
  );
}

/** A native result as a Firecrawl web result (a Document when it was scraped). */
function webResult(r: SearchResult, hits: HitScrape, position: number): Record<string, unknown> {
  const base = { url: r.url, title: r.title, description: r.description, position };
  if (!hits.scrape) return base;
  if (r.markdown === null) {
    // A hit whose page failed: Firecrawl's shape for it is a document whose metadata has the error.
    return { ...base, metadata: { sourceURL: r.url, url: r.url, error: r.error, code: r.code } };
  }
  if (!('metadata' in r) || !r.metadata) return base;
  const doc = {
    markdown: r.markdown,
    html: r.html,
    ...('changeTracking' in r && r.changeTracking ? { changeTracking: r.changeTracking } : {}),
    summary: r.summary,
    metadata: r.metadata,
  } as DocumentData;
  return { ...base, ...toFirecrawlDocument(doc, { wanted: hits.wanted }) };
}

/** Firecrawl search routes: v2 `{ success, data: { web } }`, v1 `{ success, data: [...] }`. */
export function searchCompatRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v2/search', async (req: Request, res: Response) => {
    const body = parseBody(firecrawlSearchBodyV2, req.body);
    for (const [i, s] of (body.sources ?? []).entries()) {
      const type = typeof s === 'string' ? s : (s as { type?: unknown } | null)?.type;
      if (type !== 'web')
        refuse(`sources.${i}`, `"${String(type)}" is not supported by this service (only "web")`);
    }
    for (const name of REFUSED_SEARCH_OPTIONS) {
      if (given(body[name])) refuse(name, 'is not supported by this service');
    }
    const t = body.scrapeOptions
      ? toNativePageFields(body.scrapeOptions, { prefix: 'scrapeOptions.', allowJson: false })
      : undefined;
    const hits = hitScrape(body.scrapeOptions, t);
    const { results, creditsUsed } = await searchOperation(deps, authOf(res), nativeSearch(body, hits), res);
    res.json({ success: true, data: { web: results.map((r, i) => webResult(r, hits, i + 1)) }, creditsUsed });
  });
  router.post('/v1/search', async (req: Request, res: Response) => {
    const body = parseBody(firecrawlSearchBodyV1, req.body);
    if (given(body.filter)) refuse('filter', 'is not supported by this service');
    const t = body.scrapeOptions
      ? toNativePageFieldsV1(body.scrapeOptions, { prefix: 'scrapeOptions.', allowJson: false })
      : undefined;
    const hits = hitScrape(body.scrapeOptions, t);
    const { results, creditsUsed } = await searchOperation(deps, authOf(res), nativeSearch(body, hits), res);
    res.json({ success: true, data: results.map((r, i) => webResult(r, hits, i + 1)), creditsUsed });
  });
  return router;
}
