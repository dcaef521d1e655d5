import { engineChoice, outputFormat, pageOptionFields } from '@wcs/queues';
import { z } from 'zod';

/** The request body of POST /v1/scrape and the Firecrawl-compatible scrape: checked by the route, described by the OpenAPI document. */
export const scrapeBody = z.strictObject({
  url: z.string({ error: 'is required and must be a string' }),
  /** Default markdown (documented); absent so that giving both format and formats is a clear 400. */
  format: outputFormat.optional(),
  onlyMainContent: z.boolean().default(true),
  /** Extensions beyond the spec (documented in the README). */
  engine: engineChoice.default('auto'),
  waitFor: z.number().int().min(0).max(30_000).default(0),
  timeout: z.number().int().min(1_000).max(120_000).optional(),
  ...pageOptionFields,
});

export type ScrapeBody = z.infer<typeof scrapeBody>;
