/**
 * A sitemap's `<lastmod>` (W3C datetime, sitemaps.org) as the LATEST instant it can mean: a
 * date-only value (`2026-12-01`) is the end of that day UTC, a month (`2026-12`) the end of that
 * month, a year the end of that year; a time to the minute the end of that minute. Why the latest:
 * a crawl that trusts lastmod skips a page when its stored copy is at least as recent, and a page
 * changed later on the day of its previous visit must not be skipped.
 * A time without a zone offset (common, and not W3C) is ambiguous by up to 26 hours: ignored, like
 * anything that is not a real date (month 13, 25:00) or is absurd (before 1990, after 9999).
 */

const W3C =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;
const MIN_YEAR = 1990;
/** A lastmod longer than this is not a date (the parser caps what it keeps anyway). */
export const MAX_LASTMOD_LENGTH = 64;

/** The lastmod's latest instant, or undefined when it is not a W3C datetime (see above). */
export function parseLastmod(raw: string): Date | undefined {
  const text = raw.trim();
  if (text.length > MAX_LASTMOD_LENGTH) return undefined;
  const m = W3C.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  if (year < MIN_YEAR) return undefined;
  const month = mo === undefined ? undefined : Number(mo);
  const day = d === undefined ? undefined : Number(d);
  if (month !== undefined && (month < 1 || month > 12)) return undefined;
  if (day !== undefined) {
    // Day 31 of a 30-day month rolls over in Date.UTC: compare with the month's last day.
    const last = new Date(Date.UTC(year, month as number, 0)).getUTCDate();
    if (day < 1 || day > last) return undefined;
  }
  if (h === undefined) {
    // Date only: the start of the next day (month, year), less 1 ms.
    const end =
      day !== undefined
        ? Date.UTC(year, (month as number) - 1, day + 1)
        : month !== undefined
          ? Date.UTC(year, month, 1)
          : Date.UTC(year + 1, 0, 1);
    return new Date(end - 1);
  }
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? undefined : Number(s);
  if (hour > 23 || minute > 59 || (second !== undefined && second > 59)) return undefined;
  let offsetMin = 0;
  if (zone && zone !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 14 || om > 59) return undefined;
    offsetMin = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const wall = Date.UTC(year, (month as number) - 1, day as number, hour, minute, second ?? 0);
  // The unit written is the precision: the end of that minute, second or fraction.
  const ms = frac === undefined ? 0 : Number(`0.${frac}`) * 1000;
  const span = second === undefined ? 60_000 : frac === undefined ? 1_000 : 10 ** (3 - frac.length);
  const end = wall + Math.floor(ms) + Math.max(1, span) - 1 - offsetMin * 60_000;
  return Number.isFinite(end) ? new Date(end) : undefined;
}
