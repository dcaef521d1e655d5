/**
 * A Firecrawl crawl request (v2 `CrawlRequest`, v1 `CrawlParams`) → the native crawl body of
 * POST /v1/crawl. Only a translation: the native schema and operation validate and run
 * it. What the service cannot honour is a 400 naming the caller's field, never a silent default.
 */
import { compilePathRules } from '@wcs/discovery';
import { ValidationError } from '@wcs/errors';
import { z } from 'zod';
import { MAX_CRAWL_PAGES } from '../contract/crawl.request';
import {
  FIRECRAWL_V2_DEFAULT_MAX_AGE_MS,
  firecrawlScrapeOptionsV1,
  firecrawlScrapeOptionsV2,
  type TranslatedScrapeOptions,
  toNativePageFields,
  toNativePageFieldsV1,
} from './scrape-options.compat';

/** Native bound of maxDepth: Firecrawl's "no limit" for the discovery depth. */
const MAX_DEPTH = 1_000;
/** Native bound of delayMs (60 s), in Firecrawl's seconds. */
const MAX_DELAY_S = 60;

const commonFields = {
  url: z.string({ error: 'is required and must be a string' }),
  // Same names and meaning natively: the native schema checks them and names them as sent.
  includePaths: z.unknown().optional(),
  excludePaths: z.unknown().optional(),
  maxDiscoveryDepth: z.number().int().min(0).max(MAX_DEPTH).optional(),
  ignoreQueryParameters: z.boolean().optional(),
  limit: z.number().int().min(1).max(MAX_CRAWL_PAGES, `at most ${MAX_CRAWL_PAGES} pages`).optional(),
  crawlEntireDomain: z.boolean().optional(),
  allowExternalLinks: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  ignoreRobotsTxt: z.boolean().optional(),
  delay: z.number().min(0).max(MAX_DELAY_S, `at most ${MAX_DELAY_S} seconds`).optional(),
  webhook: z.unknown().optional(),
  // Checked by value below (refused unless they ask for what the service does anyway).
  maxConcurrency: z.unknown().optional(),
  deduplicateSimilarURLs: z.unknown().optional(),
  regexOnFullURL: z.unknown().optional(),
  zeroDataRetention: z.unknown().optional(),
  // The SDKs label themselves with these: accepted and ignored.
  origin: z.string().optional(),
  integration: z.string().nullable().optional(),
};

export const firecrawlCrawlV2 = z.strictObject({
  ...commonFields,
  sitemap: z.enum(['include', 'skip', 'only']).optional(),
  prompt: z.unknown().optional(),
  robotsUserAgent: z.unknown().optional(),
  scrapeOptions: firecrawlScrapeOptionsV2.optional(),
});
export type FirecrawlCrawlV2 = z.infer<typeof firecrawlCrawlV2>;

export const firecrawlCrawlV1 = z.strictObject({
  ...commonFields,
  /** v1's depth bound; here the number of link hops, like maxDiscoveryDepth. */
  maxDepth: z.number().int().min(0).max(MAX_DEPTH).optional(),
  ignoreSitemap: z.boolean().optional(),
  /** v1's name of crawlEntireDomain. */
  allowBackwardLinks: z.boolean().optional(),
  scrapeOptions: firecrawlScrapeOptionsV1.optional(),
});
export type FirecrawlCrawlV1 = z.infer<typeof firecrawlCrawlV1>;

function refuse(field: string, message: string): never {
  throw new ValidationError(`${field}: ${message}`, { details: { field } });
}

/** Fields with no counterpart: refused when they ask for something (false/null pass). */
function refuseUnlessOff(body: Record<string, unknown>, names: string[], why: string): void {
  for (const name of names) {
    const v = body[name];
    if (v !== undefined && v !== null && v !== false) refuse(name, why);
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Firecrawl crawls only below the start URL's path unless `crawlEntireDomain` (v1
 * `allowBackwardLinks`) is true; the native crawl takes the whole site, so the restriction
 * becomes an include rule on the path prefix, and-ed with the caller's own include patterns.
 */
function childPathRules(startUrl: string, includePaths: unknown): unknown {
  let prefix: string;
  try {
    prefix = new URL(/^https?:\/\//i.test(startUrl.trim()) ? startUrl.trim() : `https://${startUrl.trim()}`)
      .pathname;
  } catch {
    return includePaths; // the native check reports the URL
  }
  if (prefix === '/' || prefix === '') return includePaths;
  const anchor = `^${escapeRegExp(prefix)}`;
  if (includePaths === undefined || (Array.isArray(includePaths) && includePaths.length === 0)) {
    return [anchor];
  }
  if (!Array.isArray(includePaths) || includePaths.some((p) => typeof p !== 'string')) return includePaths;
  // The caller's patterns first, so a bad one is reported as written (includePaths.2: …).
  compilePathRules({ includePaths: includePaths as string[] });
  return (includePaths as string[]).map((p) => `^(?=${escapeRegExp(prefix)})(?=[\\s\\S]*?(?:${p}))`);
}

/** The translated request: the native body (unparsed) and the document fields to return. */
export interface NativeCrawlRequest {
  body: Record<string, unknown>;
  scrape: TranslatedScrapeOptions | undefined;
}

function pageFields(scrape: TranslatedScrapeOptions | undefined) {
  if (!scrape) return {};
  const { onlyMainContent, timeout, waitFor, ...page } = scrape.page;
  if (timeout !== undefined) refuse('scrapeOptions.timeout', 'is not supported for crawls (only for scrape)');
  if (waitFor !== undefined) {
    refuse('scrapeOptions.waitFor', 'is not supported for crawls; use a { type: "wait" } action');
  }
  if (onlyMainContent !== undefined && typeof onlyMainContent !== 'boolean') {
    refuse('scrapeOptions.onlyMainContent', 'must be a boolean');
  }
  return {
    ...(onlyMainContent !== undefined ? { onlyMainContent } : {}),
    scrapeOptions: page,
  };
}

function commonToNative(b: FirecrawlCrawlV1 | FirecrawlCrawlV2, maxDepth: number | undefined) {
  refuseUnlessOff(
    b,
    ['maxConcurrency'],
    'is not supported; the service caps concurrent requests per host itself',
  );
  refuseUnlessOff(
    b,
    ['deduplicateSimilarURLs'],
    'true is not supported; URLs are de-duplicated by their normalized form (fragment, tracking parameters and default port removed, query sorted)',
  );
  refuseUnlessOff(b, ['regexOnFullURL'], 'true is not supported; patterns match the path and query');
  refuseUnlessOff(b, ['zeroDataRetention'], 'true is not supported');
  return {
    url: b.url,
    maxPages: b.limit ?? MAX_CRAWL_PAGES,
    maxDepth: maxDepth ?? MAX_DEPTH,
    ...(b.excludePaths !== undefined ? { excludePaths: b.excludePaths } : {}),
    ...(b.allowSubdomains !== undefined ? { allowSubdomains: b.allowSubdomains } : {}),
    ...(b.allowExternalLinks !== undefined ? { allowExternalLinks: b.allowExternalLinks } : {}),
    ...(b.ignoreRobotsTxt !== undefined ? { ignoreRobotsTxt: b.ignoreRobotsTxt } : {}),
    ...(b.ignoreQueryParameters ? { ignoreQueryParameters: true } : {}),
    ...(b.delay !== undefined ? { delayMs: Math.round(b.delay * 1000) } : {}),
    ...(b.webhook !== undefined ? { webhook: b.webhook } : {}),
  };
}

export function toNativeCrawlV2(b: FirecrawlCrawlV2): NativeCrawlRequest {
  refuseUnlessOff(b, ['prompt'], 'is not supported; give the crawl options themselves');
  refuseUnlessOff(
    b,
    ['robotsUserAgent'],
    'is not supported; robots.txt is read for the service’s user agent',
  );
  const scrape = b.scrapeOptions
    ? toNativePageFields(b.scrapeOptions, {
        prefix: 'scrapeOptions.',
        allowJson: false,
        defaultMaxAge: FIRECRAWL_V2_DEFAULT_MAX_AGE_MS,
      })
    : undefined;
  const includePaths = b.crawlEntireDomain ? b.includePaths : childPathRules(b.url, b.includePaths);
  return {
    body: {
      ...commonToNative(b, b.maxDiscoveryDepth),
      ...(includePaths !== undefined ? { includePaths } : {}),
      ...(b.sitemap === 'skip' || b.sitemap === 'only' ? { sitemap: b.sitemap } : {}),
      // Firecrawl's scrape defaults hold without scrapeOptions too: pages up to 2 days old are served cached.
      ...(scrape ? pageFields(scrape) : { scrapeOptions: { maxAge: FIRECRAWL_V2_DEFAULT_MAX_AGE_MS } }),
    },
    scrape,
  };
}

export function toNativeCrawlV1(b: FirecrawlCrawlV1): NativeCrawlRequest {
  const scrape = b.scrapeOptions
    ? toNativePageFieldsV1(b.scrapeOptions, { prefix: 'scrapeOptions.', allowJson: false })
    : undefined;
  const entire = b.crawlEntireDomain ?? b.allowBackwardLinks ?? false;
  const includePaths = entire ? b.includePaths : childPathRules(b.url, b.includePaths);
  const depths = [b.maxDiscoveryDepth, b.maxDepth].filter((d): d is number => d !== undefined);
  return {
    body: {
      ...commonToNative(b, depths.length > 0 ? Math.min(...depths) : undefined),
      ...(includePaths !== undefined ? { includePaths } : {}),
      ...(b.ignoreSitemap ? { sitemap: 'skip' } : {}),
      ...pageFields(scrape),
    },
    scrape,
  };
}
