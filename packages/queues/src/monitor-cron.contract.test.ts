import { canonicalTimezone, cronProblem, nextCronFire } from './monitor-cron.contract';

describe('monitor cron schedules', () => {
  test('5-field expressions at most hourly are accepted', () => {
    for (const ok of ['0 9 * * 1-5', '0 * * * *', '15 */2 * * *', '0 0 1 * *', '0 9 L * *']) {
      expect(cronProblem(ok, 'UTC')).toBeNull();
    }
  });

  test('wrong field counts, bad values, dates that never come and sub-hourly spacing are refused', () => {
    expect(cronProblem('0 9 * *', 'UTC')).toMatch(/must have 5 fields .* got 4/);
    expect(cronProblem('0 0 9 * * *', 'UTC')).toMatch(/got 6/);
    expect(cronProblem('@hourly', 'UTC')).toMatch(/got 1/);
    expect(cronProblem('61 * * * *', 'UTC')).toMatch(/not a valid cron expression/);
    expect(cronProblem('0 0 30 2 *', 'UTC')).toMatch(/not a valid cron expression|never fires/);
    expect(cronProblem('*/30 * * * *', 'UTC')).toMatch(/more than once an hour/);
    expect(cronProblem('0,59 * * * *', 'UTC')).toMatch(/more than once an hour/);
  });

  test('time zones: IANA names are canonicalised, unknown ones refused', () => {
    expect(canonicalTimezone('europe/paris')).toBe('Europe/Paris');
    expect(canonicalTimezone('UTC')).toBe('UTC');
    expect(canonicalTimezone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimezone('')).toBeNull();
  });

  test('the next fire is read in the time zone, across a DST change', () => {
    // Saturday 5 Dec 2026, 08:00 UTC: the next weekday 09:00 in Paris (UTC+1) is Monday 08:00 UTC.
    expect(nextCronFire('0 9 * * 1-5', 'Europe/Paris', new Date('2026-12-05T08:00:00Z')).toISOString()).toBe(
      '2026-12-07T08:00:00.000Z',
    );
    // Summer: 09:00 in Paris is 07:00 UTC.
    expect(nextCronFire('0 9 * * *', 'Europe/Paris', new Date('2026-07-01T10:00:00Z')).toISOString()).toBe(
      '2026-07-02T07:00:00.000Z',
    );
    expect(nextCronFire('0 9 * * *', 'UTC', new Date('2026-07-01T10:00:00Z')).toISOString()).toBe(
      '2026-07-02T09:00:00.000Z',
    );
  });
});
