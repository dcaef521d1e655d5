import { z } from 'zod';

export const MAP_DEFAULT_MAX_URLS = 5_000;
export const MAP_DEFAULT_TIMEOUT_MS = 60_000;

const maxUrls = z.number().int().min(1).max(100_000);

/** The request body of POST /v1/map and the Firecrawl-compatible map: checked by the route, described by the OpenAPI document. */
export const mapBody = z.strictObject({
  url: z.string({ error: 'is required and must be a string' }),
  max_urls: maxUrls.optional(),
  /** camelCase alias for clients that send it (the spec's name is max_urls, which wins). */
  maxUrls: maxUrls.optional(),
  /** Keep URLs containing this (case-insensitive, URL or link text), ranked; "" means no filter. */
  search: z
    .string({ error: 'must be a string' })
    .max(500)
    .optional()
    .transform((s) => (s?.trim() ? s.trim() : undefined)),
  /** Extensions beyond the spec (documented in the README). */
  includeSubdomains: z.boolean().default(false),
  ignoreSitemap: z.boolean().default(false),
  /** Only the sitemaps' URLs: no page is fetched (neither the start page nor a shallow crawl). */
  sitemapOnly: z.boolean().default(false),
  /**
   * Also answer `pages`: the links in the same order as `{ url, title?, description? }`, with the
   * title and description of the pages the map fetched (the start page and the shallow crawl's
   * pages; URLs known only from a sitemap or a link have none).
   */
  linkMetadata: z.boolean().default(false),
  timeout: z.number().int().min(1_000).max(120_000).default(MAP_DEFAULT_TIMEOUT_MS),
});

export type MapBody = z.infer<typeof mapBody>;
