/** Finding URLs: service_map (the URLs of one site) and service_search (the web, by query). */
import { z } from 'zod';
import { runTool } from '../tool-result.js';
import { urlInput } from './shared-inputs.js';
import type { ToolRegistrar } from './tool-context.js';

export const registerDiscoveryTools: ToolRegistrar = (server, ctx) => {
  server.registerTool(
    'service_map',
    {
      title: 'List the URLs of a website',
      description:
        "List the URLs of ONE website quickly, without fetching their content: the start page's links, the " +
        'sitemaps and a shallow crawl, de-duplicated and filtered to the same site. Use it to discover which ' +
        'pages exist (optionally filtered by a search term, e.g. "pricing"), then read the right ones with ' +
        'service_scrape or service_batch_scrape. Returns { links: [...], total }. Cost: 1 credit per call.',
      inputSchema: {
        url: urlInput('The site to map, e.g. "https://example.com" (a bare domain gets https://).'),
        max_urls: z
          .number()
          .int()
          .min(1)
          .max(100_000)
          .optional()
          .describe('Most links to return (default 5000).'),
        search: z
          .string()
          .min(1)
          .max(500)
          .optional()
          .describe(
            'Keep only URLs containing this term (in the URL or the link text, case-insensitive), best matches first.',
          ),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ url, max_urls, search }, extra) =>
      runTool(ctx.client, (client) => client.map(url, { max_urls, search, signal: extra.signal })),
  );

  server.registerTool(
    'service_search',
    {
      title: 'Search the web',
      description:
        'Search the WEB by query when you do not know which pages hold the answer; each hit is scraped, so ' +
        'results carry { url, title, description, markdown, metadata }. A hit that could not be scraped has ' +
        'markdown: null and an error. Use service_scrape instead when you already know the URL, service_map ' +
        "to list one site's pages. Cost: 2 credits per result returned (failed pages are refunded); " +
        "the response's creditsUsed says what the call cost.",
      inputSchema: {
        query: z
          .string()
          .trim()
          .min(1)
          .max(500)
          .describe('What to search for; web-search syntax works: words, "exact phrases", OR, -excluded.'),
        num_results: z
          .number()
          .int()
          .min(1)
          .max(20)
          .optional()
          .describe('How many results, 1–20 (default 5).'),
        country: z
          .string()
          .regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 code such as "us" or "de"')
          .optional()
          .describe('Country to search from, ISO 3166-1 alpha-2 (e.g. "us", "de").'),
        lang: z
          .string()
          .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'an ISO 639-1 or BCP 47 tag such as "en" or "pt-BR"')
          .optional()
          .describe('Result language, ISO 639-1 or BCP 47 (e.g. "en", "pt-BR").'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ query, num_results, country, lang }, extra) =>
      runTool(ctx.client, (client) =>
        client.search(query, { num_results, country, lang, signal: extra.signal }),
      ),
  );
};
