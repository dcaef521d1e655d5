import { changeTrackingOptions, countryCode, outputFormat } from '@wcs/queues';
import { z } from 'zod';

export const MAX_SEARCH_RESULTS = 20;

/** The request body of POST /v1/search and the Firecrawl-compatible search: checked by the route, described by the OpenAPI document. */
export const searchBody = z.strictObject({
  query: z.string({ error: 'is required and must be a string' }).trim().min(1, 'must not be empty').max(500),
  num_results: z.number().int().min(1).max(MAX_SEARCH_RESULTS).default(5),
  country: countryCode('must be a two-letter country code (ISO 3166-1), e.g. "us"')
    .transform((s) => s.toLowerCase())
    .optional(),
  lang: z
    .string()
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, 'must be a language code, e.g. "en" or "pt-BR"')
    .optional(),
  /** Extensions beyond the spec (documented in the README). */
  format: outputFormat.default('markdown'),
  onlyMainContent: z.boolean().default(true),
  scrape: z.boolean().default(true),
  /** Each scraped result also gets `summary` (the extract model's): +5 credits a result (SUMMARY_CREDITS). */
  summary: z.boolean().default(false),
  /** Re-scrape hits that have a stored copy (embedded provider) instead of serving that copy. */
  fresh: z.boolean().default(false),
  timeout: z.number().int().min(1_000).max(120_000).optional(),
  /** The `changeTracking` format on every scraped hit (docs/change-tracking.md); hits are fetched, not served stored. */
  changeTracking: z.boolean().default(false),
  /** With `changeTracking: true` only. */
  changeTrackingOptions: changeTrackingOptions.optional(),
});

export type SearchBody = z.infer<typeof searchBody>;
