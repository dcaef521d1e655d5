/**
 * The account: what is left to spend, on which plan, and what went where (service_account); what
 * the deployment offers and its limits (service_capabilities).
 */
import { runTool } from '../tool-result.js';
import type { ToolRegistrar } from './tool-context.js';

export const registerAccountTools: ToolRegistrar = (server, ctx) => {
  server.registerTool(
    'service_account',
    {
      title: 'Credits, plan and usage',
      description:
        "This account's credit balance, plan (name, monthly credits), credits used in the last 30 days in " +
        'total and per operation (scrape, batch, crawl, map, search, extract, monitor; net of refunds), and ' +
        'the rate limit (requests left in the current window, when it resets). Check it before a large crawl ' +
        'or batch, or after an INSUFFICIENT_CREDITS error. Free.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (_args, extra) =>
      runTool(ctx.client, async (client) => {
        // Both reads in parallel; the per-operation totals are what usedLast30Days adds up.
        const [account, usage] = await Promise.all([
          client.account({ signal: extra.signal }),
          client.usage({ days: 30, signal: extra.signal }),
        ]);
        const { accountId, balance, plan, usedLast30Days, rateLimit } = account.data;
        return { accountId, balance, plan, usedLast30Days, usageLast30Days: usage.data.totals, rateLimit };
      }),
  );

  server.registerTool(
    'service_capabilities',
    {
      title: 'What this deployment can do',
      description:
        'What this web-content deployment offers before you call it: engines (is a browser available), ' +
        'PDF/DOCX documents and OCR, the extract model configured (provider and model; extraction is ' +
        'refused when none is), the search provider, how many proxies, output formats, page options, the ' +
        'Firecrawl-compatible routes, credit prices, and every limit (batch size, crawl pages, body size, ' +
        'time budgets, the rate limit of this plan). Free.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (_args, extra) =>
      runTool(ctx.client, async (client) => (await client.capabilities({ signal: extra.signal })).data),
  );
};
