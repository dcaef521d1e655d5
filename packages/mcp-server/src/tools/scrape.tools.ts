/** service_scrape: one page → markdown (or the formats asked) + metadata. */
import type { PageFormat, ScrapeResponse } from '@wcs/client-node';
import { z } from 'zod';
import { runTool } from '../tool-result.js';
import { formatKeys, pageOptionInputs, pageOptionsOf } from './page-option-inputs.js';
import { onlyMainContentInput, urlInput } from './shared-inputs.js';
import type { ToolRegistrar } from './tool-context.js';

const FORMATS = ['markdown', 'html', 'text', 'json'] as const;
type Format = (typeof FORMATS)[number];

/** What actions produced and a cut-page warning, when present: the model needs both. */
function extras(data: ScrapeResponse['data']): Record<string, unknown> {
  return {
    ...(data.actions ? { actions: data.actions } : {}),
    ...(data.warning ? { warning: data.warning } : {}),
  };
}

/**
 * Without `formats` the API sends markdown, html and text; the model gets only the asked format
 * (markdown by default) and the metadata, to keep its context small.
 */
export function pickFormat(response: ScrapeResponse, format: Format): Record<string, unknown> {
  const { data } = response;
  return { [format]: data[format] ?? null, metadata: data.metadata, ...extras(data) };
}

/** With `formats` the document holds exactly those (a screenshot as its URL): each one, then metadata. */
export function pickFormats(
  response: ScrapeResponse,
  formats: readonly PageFormat[],
): Record<string, unknown> {
  const data = response.data as ScrapeResponse['data'] & Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const key of formatKeys(formats)) picked[key] = data[key] ?? null;
  return { ...picked, metadata: data.metadata, ...extras(data) };
}

export const registerScrapeTools: ToolRegistrar = (server, ctx) => {
  server.registerTool(
    'service_scrape',
    {
      title: 'Scrape one web page',
      description:
        'Fetch ONE web page and return its content as clean markdown plus metadata (title, description, ' +
        'language, statusCode, finalUrl…). Use it when you already know the exact page to read. ' +
        'For many pages of one site use service_crawl; for a list of known URLs use service_batch_scrape; ' +
        'to find which URLs a site has use service_map; to find pages on the web by topic use service_search; ' +
        'for specific fields as JSON use service_extract. JavaScript-heavy pages are rendered automatically. ' +
        'Only the requested format is returned (markdown by default; `formats` for links, raw HTML, a screenshot…). ' +
        'Cost: 1 credit (refunded if the scrape fails).',
      inputSchema: {
        url: urlInput('The page to fetch, e.g. "https://example.com/pricing" (a bare domain gets https://).'),
        format: z
          .enum(FORMATS)
          .default('markdown')
          .describe(
            'What to return besides metadata: "markdown" (default, best for reading), "html", "text", or "json" ' +
              '(a structured document: headings, blocks, links).',
          ),
        onlyMainContent: onlyMainContentInput,
        waitFor: z
          .number()
          .int()
          .min(0)
          .max(30_000)
          .optional()
          .describe('Extra wait after the page loads, in ms (renders it in a browser).'),
        ...pageOptionInputs,
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ url, format, onlyMainContent, waitFor, ...page }, extra) =>
      runTool(ctx.client, async (client) => {
        const options = pageOptionsOf(page);
        const formats = options.formats;
        const response = await client.scrape(url, {
          ...(formats ? {} : { format }),
          ...(onlyMainContent !== undefined ? { onlyMainContent } : {}),
          ...(waitFor !== undefined ? { waitFor } : {}),
          ...options,
          signal: extra.signal,
        });
        return formats ? pickFormats(response, formats) : pickFormat(response, format);
      }),
  );
};
