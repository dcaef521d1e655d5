/** service_scrape: one page → markdown (or html/text/json) + metadata. */
import type { ScrapeResponse } from '@wcs/client-node';
import { z } from 'zod';
import { runTool } from '../tool-result.js';
import { onlyMainContentInput, urlInput } from './shared-inputs.js';
import type { ToolRegistrar } from './tool-context.js';

const FORMATS = ['markdown', 'html', 'text', 'json'] as const;
type Format = (typeof FORMATS)[number];

/**
 * The API always sends markdown, html and text; the model gets only the asked format (markdown
 * by default) and the metadata, to keep its context small.
 */
export function pickFormat(response: ScrapeResponse, format: Format): Record<string, unknown> {
  const { data } = response;
  return { [format]: data[format] ?? null, metadata: data.metadata };
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
        'Only the requested format is returned (markdown by default). Cost: 1 credit (refunded if the scrape fails).',
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
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ url, format, onlyMainContent }, extra) =>
      runTool(ctx.client, async (client) =>
        pickFormat(await client.scrape(url, { format, onlyMainContent, signal: extra.signal }), format),
      ),
  );
};
