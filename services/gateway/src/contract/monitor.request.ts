import { readPageOptionFields } from '@wcs/queues';
import { z } from 'zod';

export const MONITOR_INTERVALS = ['hourly', 'daily', 'weekly'] as const;

/** The request body of POST /v1/monitors: checked by the route, described by the OpenAPI document. */
export const monitorBody = z.strictObject({
  url: z.string({ error: 'is required and must be a string' }),
  interval: z.enum(MONITOR_INTERVALS, { error: 'must be one of hourly, daily, weekly' }).default('daily'),
  webhookUrl: z.string({ error: 'must be a string' }).optional(),
  /** Page options of every check (extensions; README "Page options"). No formats or cache: a check reads the page. */
  waitFor: z.number().int().min(0).max(30_000).optional(),
  ...readPageOptionFields,
});
