/** service_batch_scrape (start, and by default wait) and service_batch_status. Results trimmed to url + markdown. */
import { z } from 'zod';
import { runTool } from '../tool-result.js';
import { trimBatch, withHttps } from '../trim.js';
import { pollHint, progressNotifier, stillRunningAnswer } from './job-wait.js';
import { pageOptionInputs, pageOptionsOf } from './page-option-inputs.js';
import {
  jobIdInput,
  MAX_URL_LENGTH,
  onlyMainContentInput,
  timeoutSecondsInput,
  waitInput,
} from './shared-inputs.js';
import type { ToolRegistrar } from './tool-context.js';

export const registerBatchTools: ToolRegistrar = (server, ctx) => {
  server.registerTool(
    'service_batch_scrape',
    {
      title: 'Scrape many known URLs',
      description:
        'Scrape a LIST of URLs you already have (1–500; they may be on different sites) in one job and return ' +
        'each page as markdown. Use it instead of calling service_scrape many times; to discover URLs first ' +
        'use service_map or service_search; to follow links across one site use service_crawl. Bare domains ' +
        '("example.com/a") get https:// added. Waits for the batch to finish by default (progress is ' +
        'reported); with wait: false it returns the batch id at once, to poll with service_batch_status. ' +
        'Returns results as { url, markdown } (or { url, ...formats } with formats) and failures as { url, error }. ' +
        'Cost: 1 credit per URL, reserved up front; failed URLs are refunded.',
      inputSchema: {
        urls: z
          .array(z.string().trim().min(1).max(MAX_URL_LENGTH))
          .min(1)
          .max(500)
          .describe('The pages to scrape, e.g. ["https://example.com/a", "example.org/b"]; 1 to 500.'),
        onlyMainContent: onlyMainContentInput,
        ...pageOptionInputs,
        wait: waitInput('service_batch_status'),
        timeoutSeconds: timeoutSecondsInput,
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ urls, onlyMainContent, wait, timeoutSeconds, ...page }, extra) =>
      runTool(ctx.client, async (client) => {
        const signal = extra.signal;
        const options = {
          ...(onlyMainContent !== undefined ? { onlyMainContent } : {}),
          ...pageOptionsOf(page),
        };
        const fullUrls = urls.map(withHttps);
        if (!wait) {
          const started = await client.startBatchScrape(fullUrls, { ...options, signal });
          return {
            id: started.id,
            status: 'pending',
            total: started.total,
            nextStep: pollHint('service_batch_status', started.id),
          };
        }
        try {
          const done = await client.batchScrapeAndWait(fullUrls, {
            ...options,
            signal,
            timeoutMs: timeoutSeconds * 1000,
            pollIntervalMs: ctx.pollIntervalMs,
            onProgress: progressNotifier(extra, 'batch'),
          });
          return trimBatch(done, options.formats);
        } catch (err) {
          const answer = stillRunningAnswer(err, 'service_batch_status');
          if (answer) return answer;
          throw err;
        }
      }),
  );

  server.registerTool(
    'service_batch_status',
    {
      title: 'Batch status and results',
      description:
        'Status and results of a batch started by service_batch_scrape (typically with wait: false): status ' +
        '(pending, processing, done), counts, credits used, finished items as { url, markdown } and failed ' +
        'ones as { url, error }. Poll it until status is "done"; a done batch may still contain failures. Free.',
      inputSchema: { id: jobIdInput('service_batch_scrape') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }, extra) =>
      runTool(ctx.client, async (client) => trimBatch(await client.allBatchResults(id, extra.signal))),
  );
};
