import { outputFormat, pageOptionFields } from '@wcs/queues';
import { z } from 'zod';

/** The formats an uploaded file has: no screenshots or images (nothing is rendered or fetched); `summary` adds 5 credits. */
export const parseFormat = z.enum(['markdown', 'html', 'rawHtml', 'text', 'json', 'links', 'summary']);

/**
 * The options of POST /v1/parse (the `options` JSON part or fields of a form, or the query string
 * of a raw body): the page options that apply to a file. Those that set how a page is fetched
 * (engine, waitFor, headers, actions, proxy, location, mobile, maxAge…) are refused with a 400.
 */
export const parseOptions = z.strictObject({
  /** Default markdown, as for a scrape; give either format or formats. */
  format: outputFormat.optional(),
  formats: z.array(parseFormat).min(1).max(parseFormat.options.length).optional(),
  onlyMainContent: z.boolean().default(true),
  includeTags: pageOptionFields.includeTags,
  excludeTags: pageOptionFields.excludeTags,
  /** ms; default SCRAPE_TIMEOUT_MS. */
  timeout: z.number().int().min(1_000).max(120_000).optional(),
  /** The file's name (metadata.sourceURL `file:///<name>`); a form's file part gives its own. */
  filename: z.string().min(1).max(255).optional(),
});

export type ParseOptions = z.infer<typeof parseOptions>;
