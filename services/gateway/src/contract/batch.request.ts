import { jobWebhook, outputFormat, pageOptionFields } from '@wcs/queues';
import { z } from 'zod';

export const MAX_BATCH_ITEMS = 500;

/** The request body of POST /v1/batch/scrape: checked by the route, described by the OpenAPI document. */
export const batchBody = z.strictObject({
  urls: z.array(z.string({ error: 'must be a string' })).optional(),
  items: z
    .array(
      z.strictObject({
        id: z.string({ error: 'must be a string' }).max(256, 'must be at most 256 characters').optional(),
        url: z.string({ error: 'is required and must be a string' }),
      }),
    )
    .optional(),
  format: outputFormat.optional(),
  onlyMainContent: z.boolean().default(true),
  /** Page options applied to every item (extensions; README "Page options"). */
  ...pageOptionFields,
  /** Firecrawl-style events (started/page/completed/failed) POSTed to the caller. */
  webhook: jobWebhook.optional(),
});
export type BatchBody = z.infer<typeof batchBody>;
