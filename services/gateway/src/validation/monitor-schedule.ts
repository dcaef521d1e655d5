import { ValidationError } from '@wcs/errors';
import { canonicalTimezone, cronProblem } from '@wcs/queues';

type Interval = 'hourly' | 'daily' | 'weekly';

export interface MonitorSchedule {
  interval: Interval | 'cron';
  cron: string | null;
  timezone: string;
}

const refuse = (field: string, problem: string): never => {
  throw new ValidationError(`${field}: ${problem}`, { details: { field } });
};

/**
 * A monitor's schedule from its request fields: an interval (daily by default), or a 5-field
 * `cron` expression read in `timezone` (an IANA name, UTC by default). 400 naming the field for
 * both at once, a timezone without a cron, an unknown zone or an invalid or sub-hourly cron.
 */
export function monitorSchedule(body: {
  interval?: Interval;
  cron?: string;
  timezone?: string;
}): MonitorSchedule {
  if (body.cron === undefined) {
    if (body.timezone !== undefined) refuse('timezone', 'only applies to a cron schedule (set cron)');
    return { interval: body.interval ?? 'daily', cron: null, timezone: 'UTC' };
  }
  if (body.interval !== undefined) refuse('interval', 'give either interval or cron, not both');
  const timezone = body.timezone === undefined ? 'UTC' : canonicalTimezone(body.timezone.trim());
  if (timezone === null) {
    refuse(
      'timezone',
      `${JSON.stringify(body.timezone)} is not a known IANA time zone (e.g. "Europe/Paris")`,
    );
  }
  const zone = timezone as string;
  const problem = cronProblem(body.cron, zone);
  if (problem) refuse('cron', problem);
  return { interval: 'cron', cron: body.cron.trim().split(/\s+/).join(' '), timezone: zone };
}

/**
 * The schedule after a PATCH: `interval` or `cron` replace the schedule (a cron keeps the monitor's
 * zone unless `timezone` is given); `timezone` alone re-reads the monitor's cron in another zone.
 * Null when the body changes nothing of the schedule.
 */
export function patchedSchedule(
  current: MonitorSchedule,
  body: { interval?: Interval; cron?: string; timezone?: string },
): MonitorSchedule | null {
  if (body.interval === undefined && body.cron === undefined && body.timezone === undefined) return null;
  if (body.cron === undefined && body.interval === undefined) {
    if (current.cron === null) refuse('timezone', 'only applies to a cron schedule (set cron)');
    return monitorSchedule({ cron: current.cron as string, timezone: body.timezone });
  }
  const timezone =
    body.timezone ?? (body.cron !== undefined && current.cron !== null ? current.timezone : undefined);
  return monitorSchedule({
    ...(body.interval !== undefined ? { interval: body.interval } : {}),
    ...(body.cron !== undefined ? { cron: body.cron } : {}),
    ...(timezone !== undefined ? { timezone } : {}),
  });
}
