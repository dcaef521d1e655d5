/** Monitors: watch a page for content changes. Create, list, get (with detected changes), delete. */
import { z } from 'zod';
import { runTool } from '../tool-result.js';
import { monitorIdInput, urlInput } from './shared-inputs.js';
import type { ToolRegistrar } from './tool-context.js';

export const registerMonitorTools: ToolRegistrar = (server, ctx) => {
  server.registerTool(
    'service_monitor_create',
    {
      title: 'Watch a page for changes',
      description:
        'Start watching ONE page for content changes: it is re-checked every hour, day or week, and when its ' +
        'text, links or images change (formatting-only edits do not count) a change is recorded and, if ' +
        'webhookUrl is set, POSTed there. Read detected changes with service_monitor_get. The first check ' +
        'runs at once and sets the baseline. Cost: 1 credit per check (so hourly = about 720 credits a ' +
        'month); when credits run out the monitor pauses and resumes after a top-up.',
      inputSchema: {
        url: urlInput('The page to watch, e.g. "https://example.com/pricing" (a bare domain gets https://).'),
        interval: z
          .enum(['hourly', 'daily', 'weekly'])
          .optional()
          .describe('How often to check: "hourly", "daily" (default) or "weekly".'),
        webhookUrl: z
          .url({ protocol: /^https?$/ })
          .optional()
          .describe(
            'Absolute http(s) URL that receives one POST { monitorId, url, detectedAt, snapshot } per change.',
          ),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    async ({ url, interval, webhookUrl }, extra) =>
      runTool(ctx.client, (client) =>
        client.createMonitor(url, { interval, webhookUrl, signal: extra.signal }),
      ),
  );

  server.registerTool(
    'service_monitor_list',
    {
      title: 'List monitors',
      description:
        "List this account's monitors, newest first, with url, interval, status (active, paused, cancelled), " +
        "lastCheckAt and nextCheckAt. Use service_monitor_get for one monitor's detected changes. Free.",
      inputSchema: {
        skip: z.number().int().min(0).optional().describe('Monitors to skip (paging; default 0).'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(500)
          .optional()
          .describe('Monitors to return, 1–500 (default 50).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ skip, limit }, extra) =>
      runTool(ctx.client, (client) => client.listMonitors({ skip, limit, signal: extra.signal })),
  );

  server.registerTool(
    'service_monitor_get',
    {
      title: 'Monitor details and detected changes',
      description:
        "One monitor's status and history: every detected change (detectedAt and a snapshot of the first 500 " +
        'characters of the new content), the last checks (with errors, if any) and webhook delivery attempts. ' +
        'Free.',
      inputSchema: { id: monitorIdInput },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }, extra) => runTool(ctx.client, (client) => client.getMonitor(id, { signal: extra.signal })),
  );

  server.registerTool(
    'service_monitor_delete',
    {
      title: 'Stop watching a page',
      description:
        'Cancel a monitor: checks stop at once and it costs nothing more; its history stays readable with ' +
        'service_monitor_get. Cancelling is final (create a new monitor to watch again). Free.',
      inputSchema: { id: monitorIdInput },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ id }, extra) =>
      runTool(ctx.client, (client) => client.deleteMonitor(id, { signal: extra.signal })),
  );
};
