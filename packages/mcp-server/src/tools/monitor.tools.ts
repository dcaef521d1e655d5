/** Monitors: watch a page for content changes. Create, list, get (with detected changes), update, delete. */
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
        'runs at once and sets the baseline. Instead of an interval, cron (+ timezone) checks at set times. Quiet it with ignoreText (lines to leave out, e.g. "Last updated"), ' +
        'threshold (share of words that must change) and goal (a change is recorded only when the model judges ' +
        'it relevant to the goal). Every change carries a diff (added and removed lines). Cost: 1 credit per ' +
        'check (so hourly = about 720 credits a month), plus 5 when a change is judged against the goal; when ' +
        'credits run out the monitor pauses and resumes after a top-up.',
      inputSchema: {
        url: urlInput('The page to watch, e.g. "https://example.com/pricing" (a bare domain gets https://).'),
        interval: z
          .enum(['hourly', 'daily', 'weekly'])
          .optional()
          .describe('How often to check: "hourly", "daily" (default) or "weekly". Not with cron.'),
        cron: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe(
            'Instead of interval: a 5-field cron expression (minute hour day-of-month month day-of-week), at most ' +
              'once an hour, e.g. "0 9 * * 1-5" for weekdays at 9:00.',
          ),
        timezone: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe('The IANA time zone cron is read in, e.g. "Europe/Paris" (default UTC). Only with cron.'),
        webhookUrl: z
          .url({ protocol: /^https?$/ })
          .optional()
          .describe(
            'Absolute http(s) URL that receives one POST { monitorId, url, detectedAt, snapshot, diff, judgement? } per change.',
          ),
        ignoreText: z
          .array(z.string().min(1).max(200))
          .max(50)
          .optional()
          .describe(
            'Lines to leave out before comparing: plain text (any case) or "/regex/flags" in JavaScript syntax, ' +
              'e.g. ["Last updated", "/^\\d+ visitors$/i"].',
          ),
        threshold: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe(
            'Share of words (0–1) that must change for a change to count, e.g. 0.1; default 0 = any change.',
          ),
        goal: z
          .string()
          .min(1)
          .max(1000)
          .optional()
          .describe(
            'What you watch for, e.g. "the price of the basic plan": each change is judged against it by the model ' +
              'and only relevant ones are recorded and POSTed (5 credits per judged change).',
          ),
        webhookFormat: z
          .enum(['json', 'slack', 'discord'])
          .optional()
          .describe(
            'Body of the webhook: "json" (default), or "slack" / "discord" to POST a message straight into a channel ' +
              "through that platform's incoming-webhook URL.",
          ),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    async (
      { url, interval, cron, timezone, webhookUrl, ignoreText, threshold, goal, webhookFormat },
      extra,
    ) =>
      runTool(ctx.client, (client) =>
        client.createMonitor(url, {
          interval,
          cron,
          timezone,
          webhookUrl,
          ignoreText,
          threshold,
          goal,
          webhookFormat,
          signal: extra.signal,
        }),
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
        "One monitor's status and history: every detected change (detectedAt, a snapshot of the first 500 " +
        'characters of the new content, the diff and, with a goal, the judgement), the last checks (with errors ' +
        'and judgements, if any) and webhook delivery attempts. ' +
        'Free.',
      inputSchema: { id: monitorIdInput },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }, extra) => runTool(ctx.client, (client) => client.getMonitor(id, { signal: extra.signal })),
  );

  server.registerTool(
    'service_monitor_update',
    {
      title: "Change a monitor's schedule, rules or webhook",
      description:
        'Change an existing monitor; only the fields given change. Schedule: interval, or cron (+ timezone). ' +
        'webhookUrl or goal null removes them; ignoreText [] clears the rules (new rules make the next check a ' +
        'new baseline). Cancelled monitors cannot be changed. Free.',
      inputSchema: {
        id: monitorIdInput,
        interval: z
          .enum(['hourly', 'daily', 'weekly'])
          .optional()
          .describe('New interval (replaces a cron).'),
        cron: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe('New 5-field cron expression, at most hourly (replaces the interval).'),
        timezone: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe('IANA time zone of the cron, e.g. "Europe/Paris".'),
        webhookUrl: z
          .url({ protocol: /^https?$/ })
          .nullable()
          .optional()
          .describe('New webhook URL; null removes it.'),
        webhookFormat: z.enum(['json', 'slack', 'discord']).optional().describe('New webhook body format.'),
        ignoreText: z
          .array(z.string().min(1).max(200))
          .max(50)
          .optional()
          .describe('New ignore rules; [] clears.'),
        threshold: z.number().min(0).max(1).optional().describe('New share of words that must change (0–1).'),
        goal: z.string().min(1).max(1000).nullable().optional().describe('New goal; null removes it.'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ id, ...changes }, extra) =>
      runTool(ctx.client, (client) => client.updateMonitor(id, { ...changes, signal: extra.signal })),
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
