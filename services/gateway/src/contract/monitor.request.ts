import { MAX_CRON_CHARS, MAX_IGNORE_RULES, readPageOptionFields } from '@wcs/queues';
import { z } from 'zod';

export const MAX_GOAL_CHARS = 1_000;

export const MONITOR_INTERVALS = ['hourly', 'daily', 'weekly'] as const;

/**
 * A goal: at most MAX_GOAL_CHARS as sent (whitespace included, so the 400 names the length the
 * caller sees), then trimmed; blank is a 400.
 */
const goalField = (error: string) =>
  z
    .string({ error })
    .max(MAX_GOAL_CHARS, { error: `must be at most ${MAX_GOAL_CHARS} characters (whitespace included)` })
    .trim()
    .min(1, { error: 'must not be empty or only whitespace' });

/** The request body of POST /v1/monitors: checked by the route, described by the OpenAPI document. */
export const monitorBody = z.strictObject({
  url: z.string({ error: 'is required and must be a string' }),
  /** Default daily, unless `cron` is given (the two are exclusive). */
  interval: z.enum(MONITOR_INTERVALS, { error: 'must be one of hourly, daily, weekly' }).optional(),
  /** A 5-field cron expression instead of an interval, at most hourly (validated by the route). */
  cron: z.string({ error: 'must be a string' }).max(MAX_CRON_CHARS).optional(),
  /** The IANA time zone `cron` is read in (default UTC); only with `cron`. */
  timezone: z.string({ error: 'must be a string' }).max(64).optional(),
  webhookUrl: z.string({ error: 'must be a string' }).optional(),
  /** Page options of every check (extensions; README "Page options"). No formats or cache: a check reads the page. */
  waitFor: z.number().int().min(0).max(30_000).optional(),
  /** Lines of the cleaned markdown left out before hashing and diffing: substrings or "/regex/flags". */
  ignoreText: z
    .array(z.string({ error: 'must be a list of strings' }), { error: 'must be a list of strings' })
    .max(MAX_IGNORE_RULES)
    .optional(),
  /** Share of words that must change for a change to count: 0 (any, the default) to 1. */
  threshold: z.number({ error: 'must be a number from 0 to 1' }).min(0).max(1).optional(),
  /** What the user watches for: each change is judged against it by the extract model. */
  goal: goalField('must be a string').optional(),
  /** The webhook's body: the spec's JSON (default), or a Slack / Discord incoming-webhook message. */
  webhookFormat: z
    .enum(['json', 'slack', 'discord'], { error: 'must be one of json, slack, discord' })
    .optional(),
  ...readPageOptionFields,
});

/**
 * The request body of PATCH /v1/monitor/:id: the fields to change, validated as on create.
 * `webhookUrl` and `goal` take null to remove them, `ignoreText` [] to clear the rules.
 */
export const monitorPatchBody = z.strictObject({
  interval: z.enum(MONITOR_INTERVALS, { error: 'must be one of hourly, daily, weekly' }).optional(),
  cron: z.string({ error: 'must be a string' }).max(MAX_CRON_CHARS).optional(),
  timezone: z.string({ error: 'must be a string' }).max(64).optional(),
  webhookUrl: z.string({ error: 'must be a string or null' }).nullable().optional(),
  webhookFormat: z
    .enum(['json', 'slack', 'discord'], { error: 'must be one of json, slack, discord' })
    .optional(),
  ignoreText: z
    .array(z.string({ error: 'must be a list of strings' }), { error: 'must be a list of strings' })
    .max(MAX_IGNORE_RULES)
    .optional(),
  threshold: z.number({ error: 'must be a number from 0 to 1' }).min(0).max(1).optional(),
  goal: goalField('must be a string or null').nullable().optional(),
});
