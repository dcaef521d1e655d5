/** service_crawl (start, and by default wait) and service_crawl_status. Results trimmed to url + markdown. */
import { z } from 'zod';
import { runTool } from '../tool-result.js';
import { trimCrawl } from '../trim.js';
import { pollHint, progressNotifier, stillRunningAnswer } from './job-wait.js';
import { pageOptionInputs, pageOptionsOf } from './page-option-inputs.js';
import {
  jobIdInput,
  onlyMainContentInput,
  timeoutSecondsInput,
  urlInput,
  waitInput,
} from './shared-inputs.js';
import type { ToolRegistrar } from './tool-context.js';

const pathPatterns = (what: string) =>
  z
    .array(z.string().min(1).max(200))
    .max(20)
    .optional()
    .describe(
      `${what} JavaScript regular expressions (not globs) tested unanchored against each URL's path + query ` +
        '(e.g. "^/docs/", "\\\\.pdf$"); at most 20. The start page is always crawled.',
    );

export const registerCrawlTools: ToolRegistrar = (server, ctx) => {
  server.registerTool(
    'service_crawl',
    {
      title: 'Crawl a website',
      description:
        'Crawl a WEBSITE: start at a URL, follow its links (and sitemap) breadth-first, and return every ' +
        'page as markdown. Use it to read many pages of one site (docs, blog, knowledge base); for one page ' +
        "use service_scrape, to only list a site's URLs (cheap) use service_map, for URLs you already have " +
        'use service_batch_scrape. Waits for the crawl to finish by default (it can take minutes on big ' +
        'sites; progress is reported); with wait: false it returns the crawl id at once, to poll with ' +
        'service_crawl_status. Each page comes back as { url, markdown } only; failed pages as { url, error }. ' +
        "Keep maxPages small: every page's markdown is returned. Page options (formats, headers, actions…) " +
        'apply to every page. ' +
        'Cost: 1 credit per page crawled (failed pages are free).',
      inputSchema: {
        url: urlInput(
          'Where the crawl starts, e.g. "https://docs.example.com/" (a bare domain gets https://).',
        ),
        maxDepth: z
          .number()
          .int()
          .min(0)
          .max(1_000)
          .optional()
          .describe('Link hops from the start page (default 2; 0 = the start page only).'),
        maxPages: z
          .number()
          .int()
          .min(1)
          .max(10_000)
          .optional()
          .describe('Most pages to crawl, failed ones included (default 100).'),
        includePaths: pathPatterns('Only follow URLs matching at least one of these'),
        excludePaths: pathPatterns('Never follow URLs matching any of these'),
        allowSubdomains: z
          .boolean()
          .optional()
          .describe('Also follow links to subdomains such as blog.example.com (default false).'),
        ignoreRobotsTxt: z
          .boolean()
          .optional()
          .describe('Ignore robots.txt rules (default false: obey them).'),
        onlyMainContent: onlyMainContentInput,
        ...pageOptionInputs,
        wait: waitInput('service_crawl_status'),
        timeoutSeconds: timeoutSecondsInput,
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (
      {
        url,
        wait,
        timeoutSeconds,
        formats,
        headers,
        actions,
        mobile,
        location,
        includeTags,
        excludeTags,
        maxAge,
        ...rest
      },
      extra,
    ) =>
      runTool(ctx.client, async (client) => {
        const signal = extra.signal;
        const scrapeOptions = pageOptionsOf({
          formats,
          headers,
          actions,
          mobile,
          location,
          includeTags,
          excludeTags,
          maxAge,
        });
        const crawlOptions = { ...rest, ...(Object.keys(scrapeOptions).length > 0 ? { scrapeOptions } : {}) };
        if (!wait) {
          const started = await client.startCrawl(url, { ...crawlOptions, signal });
          return {
            id: started.id,
            status: 'pending',
            url: started.url,
            nextStep: pollHint('service_crawl_status', started.id),
          };
        }
        try {
          const done = await client.crawlAndWait(url, {
            ...crawlOptions,
            signal,
            timeoutMs: timeoutSeconds * 1000,
            pollIntervalMs: ctx.pollIntervalMs,
            onProgress: progressNotifier(extra, 'crawl'),
          });
          return trimCrawl(done, formats);
        } catch (err) {
          const answer = stillRunningAnswer(err, 'service_crawl_status');
          if (answer) return answer;
          throw err;
        }
      }),
  );

  server.registerTool(
    'service_crawl_status',
    {
      title: 'Crawl status and results',
      description:
        'Status and results of a crawl started by service_crawl (typically with wait: false): status ' +
        '(pending, processing, then done or failed), counts, credits used, and every page crawled so far ' +
        'as { url, markdown } plus failed pages as { url, error }. Poll it until status is "done" or ' +
        '"failed"; pages crawled before a failure are kept. Free.',
      inputSchema: { id: jobIdInput('service_crawl') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }, extra) =>
      runTool(ctx.client, async (client) => trimCrawl(await client.allCrawlResults(id, extra.signal))),
  );
};
