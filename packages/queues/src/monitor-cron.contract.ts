/**
 * A monitor's `cron` schedule: a 5-field cron expression (minute hour day-of-month month
 * day-of-week) read in an IANA time zone. The gateway validates it with `cronProblem`; the
 * monitor-scheduler computes the next check with `nextCronFire` (the same library, cron-parser,
 * that BullMQ's job schedulers fire it with).
 *
 * A cron may not fire more often than the shortest interval (hourly): two fires in the same hour
 * (a minute field with several values) are refused, and so is any pair of the next fires closer
 * than that (time-zone transitions included).
 */
import { CronExpressionParser } from 'cron-parser';

/** The shortest interval a monitor may have: hourly. */
export const CRON_MIN_SPACING_MS = 60 * 60 * 1000;
export const MAX_CRON_CHARS = 100;
/** Fires sampled for the spacing rule (about 16 days of an hourly cron). */
const SAMPLED_FIRES = 400;

/** The canonical IANA name of a time zone ("europe/paris" → "Europe/Paris"), or null if unknown. */
export function canonicalTimezone(tz: string): string | null {
  if (tz.length === 0 || tz.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Why a cron expression is refused (null when it is fine). `tz` must be a known time zone. */
export function cronProblem(expr: string, tz: string): string | null {
  const trimmed = expr.trim();
  if (trimmed.length > MAX_CRON_CHARS) return `is longer than ${MAX_CRON_CHARS} characters`;
  const fields = trimmed.split(/\s+/).filter((f) => f.length > 0);
  if (fields.length !== 5) {
    return `must have 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`;
  }
  let parsed: ReturnType<typeof CronExpressionParser.parse>;
  try {
    parsed = CronExpressionParser.parse(fields.join(' '), { tz, strict: false });
  } catch (err) {
    return `${JSON.stringify(trimmed)} is not a valid cron expression (${(err as Error).message})`;
  }
  if (parsed.fields.minute.values.length > 1) {
    return `${JSON.stringify(trimmed)} fires more than once an hour (minute field ${fields[0]}); the shortest spacing is 1 hour`;
  }
  let previous: number | null = null;
  try {
    for (let i = 0; i < SAMPLED_FIRES && parsed.hasNext(); i++) {
      const at = parsed.next().getTime();
      if (previous !== null && at - previous < CRON_MIN_SPACING_MS) {
        return `${JSON.stringify(trimmed)} fires twice within an hour in ${tz} (${new Date(previous).toISOString()} and ${new Date(at).toISOString()}); the shortest spacing is 1 hour`;
      }
      previous = at;
    }
  } catch {
    // Past the library's search limit: a date that (almost) never comes, such as 30 February.
  }
  if (previous === null) return `${JSON.stringify(trimmed)} never fires`;
  return null;
}

/** The first fire of `expr` in `tz` strictly after `after`. */
export function nextCronFire(expr: string, tz: string, after: Date = new Date()): Date {
  return CronExpressionParser.parse(expr.trim(), { tz, currentDate: after }).next().toDate();
}
