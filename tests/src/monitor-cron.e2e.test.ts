/**
 * Monitors on a cron schedule (docs/api.md "Monitors"): validation, the scheduler's next check from
 * the cron expression in its time zone (checked against an independent Intl computation), a fire of
 * the job scheduler (promoted, not waited for) and the reconciler re-creating a lost cron scheduler;
 * PATCH /v1/monitor/:id changing the schedule and the rules with the same validation.
 */
import request from 'supertest';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack } from './harness';
import { startMutableSite } from './monitor-sites';

type Auth = { Authorization: string };
type Detail = {
  interval: string;
  ignoreText?: string[];
  threshold?: number;
  goal?: string;
  webhookUrl?: string;
  webhookFormat?: string;
  changes: unknown[];
  checks: Array<{ changed: boolean; hash?: string }>;
  cron?: string;
  timezone?: string;
  status: string;
  checkCount: number;
  lastCheckAt: string | null;
  nextCheckAt: string | null;
};

const HOUR_MS = 3_600_000;
const QUARTER_MS = 15 * 60_000;
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];

/**
 * The first quarter hour strictly after `after` that reads `time` on one of `days` in `timeZone`,
 * found by reading the wall clock with Intl (not cron-parser, which the service uses).
 */
function nextZoned(after: number, timeZone: string, days: string[], time: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  let t = Math.floor(after / QUARTER_MS) * QUARTER_MS + QUARTER_MS;
  for (let i = 0; i < 10 * 24 * 4; i++, t += QUARTER_MS) {
    const p = Object.fromEntries(parts.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    if (days.includes(p.weekday ?? '') && `${p.hour}:${p.minute}` === time) return t;
  }
  throw new Error(`no ${days.join('/')} ${time} in ${timeZone} within ten days`);
}

const nextParisWeekdayNine = (after: number): number => nextZoned(after, 'Europe/Paris', WEEKDAYS, '09:00');

const page = (text: string): string =>
  `<!doctype html><html><head><title>Cron</title></head><body><main><h1>Opening hours</h1><p>${text}</p></main></body></html>`;

describe('monitors on a cron schedule', () => {
  let stack: Stack;
  let site: Awaited<ReturnType<typeof startMutableSite>>;
  const created: Array<{ auth: Auth; id: string }> = [];

  beforeAll(async () => {
    site = await startMutableSite();
    stack = await startStack({
      monitorScheduler: true,
      worker: false,
      env: { MONITOR_RESUME_SWEEP_MS: '300', MONITOR_RECONCILE_MS: '60000' },
    });
  });

  afterAll(async () => {
    for (const m of created) await request(stack.url).delete(`/v1/monitor/${m.id}`).set(m.auth);
    await stack?.close();
    await site?.close();
  });

  const queue = () => stack.gateway.deps.producer.queue('monitor-check');

  async function detail(auth: Auth, id: string): Promise<Detail> {
    const res = await request(stack.url).get(`/v1/monitor/${id}`).set(auth).expect(200);
    return res.body.data as Detail;
  }

  test('invalid schedules are 400s naming the field', async () => {
    const a = await createTestAccount({ credits: 10 });
    const url = `${site.url}/bad`;
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ interval: 'daily', cron: '0 9 * * *' }, /^interval: give either interval or cron, not both/],
      [{ cron: '*/30 * * * *' }, /^cron: .*more than once an hour/],
      [{ cron: '0,30 9 * * *' }, /^cron: .*more than once an hour/],
      [{ cron: '* * * * *' }, /^cron: .*more than once an hour/],
      [{ cron: '0 9 * *' }, /^cron: must have 5 fields .* got 4/],
      [{ cron: '0 0 9 * * *' }, /^cron: must have 5 fields .* got 6/],
      [{ cron: '0 25 * * *' }, /^cron: .*not a valid cron expression/],
      [{ cron: 'every morning' }, /^cron: must have 5 fields/],
      [{ cron: 9 }, /^cron: must be a string/],
      [{ cron: '0 9 * * *', timezone: 'Mars/Olympus_Mons' }, /^timezone: .*not a known IANA time zone/],
      [{ cron: '0 9 * * *', timezone: 5 }, /^timezone: must be a string/],
      [{ timezone: 'Europe/Paris' }, /^timezone: only applies to a cron schedule/],
    ];
    for (const [extra, message] of bad) {
      const res = await request(stack.url)
        .post('/v1/monitor')
        .set(a.auth)
        .send({ url, ...extra });
      expect([res.status, res.body.success, res.body.code]).toEqual([400, false, 'VALIDATION_FAILED']);
      expect(res.body.error).toMatch(message);
    }
    // Nothing was created or charged.
    const list = await request(stack.url).get('/v1/monitor').set(a.auth).expect(200);
    expect(list.body.total).toBe(0);
    expect(await balanceOf(a.accountId)).toBe(10);
  });

  test('the next check comes from the cron in its time zone; a fire checks and moves to the next slot', async () => {
    const a = await createTestAccount({ credits: 10 });
    site.set('/hours', page('Open Monday to Friday, from nine in the morning to five in the afternoon.'));
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(a.auth)
      .send({ url: `${site.url}/hours`, cron: '0  9 * * 1-5', timezone: 'europe/paris' })
      .expect(201);
    const id = res.body.data.id as string;
    created.push({ auth: a.auth, id });
    // Canonical forms come back: single spaces, the zone's IANA spelling.
    expect(res.body.data).toMatchObject({
      interval: 'cron',
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      status: 'active',
    });

    // The baseline runs at once; then the next check is the next weekday 09:00 in Paris.
    const baseline = await pollUntil(async () => {
      const d = await detail(a.auth, id);
      return d.lastCheckAt && d.nextCheckAt ? d : undefined;
    }, 15_000);
    expect(baseline).toMatchObject({ interval: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' });
    expect(baseline.checkCount).toBe(1);
    const first = Date.parse(baseline.nextCheckAt ?? '');
    expect(first).toBe(nextParisWeekdayNine(Date.parse(baseline.lastCheckAt ?? '')));
    // BullMQ's job scheduler fires that same slot, from the pattern and zone.
    const scheduler = await queue().getJobScheduler(id);
    expect(scheduler).toMatchObject({ pattern: '0 9 * * 1-5', tz: 'Europe/Paris' });
    expect(Number(scheduler?.next)).toBe(first);

    // Fire the slot now (promote its delayed job) instead of waiting for Paris' morning.
    const job = await queue().getJob(`repeat:${id}:${first}`);
    if (!job) throw new Error(`no delayed job for slot ${new Date(first).toISOString()}`);
    await job.promote();
    const fired = await pollUntil(async () => {
      const d = await detail(a.auth, id);
      return d.checkCount >= 2 ? d : undefined;
    }, 15_000);
    // The scheduler moved to the following weekday 09:00, and the monitor says so.
    const second = nextParisWeekdayNine(first);
    expect(second - first).toBeGreaterThanOrEqual(23 * HOUR_MS);
    expect(Date.parse(fired.nextCheckAt ?? '')).toBe(second);
    const after = await pollUntil(async () => {
      const s = await queue().getJobScheduler(id);
      return Number(s?.next) === second ? s : undefined;
    }, 10_000);
    expect(after).toMatchObject({ pattern: '0 9 * * 1-5', tz: 'Europe/Paris' });
    expect(fired.checkCount).toBe(2);
    // Two checks, one credit each.
    expect(await balanceOf(a.accountId)).toBe(8);
  });

  test('a lost cron scheduler is re-created with its pattern and zone by the reconciler', async () => {
    const a = await createTestAccount({ credits: 10 });
    site.set('/weekly', page('Closed on Sundays and on public holidays, open every other day.'));
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(a.auth)
      .send({ url: `${site.url}/weekly`, cron: '30 18 * * 0', timezone: 'America/New_York' })
      .expect(201);
    const id = res.body.data.id as string;
    created.push({ auth: a.auth, id });
    const d = await pollUntil(async () => {
      const x = await detail(a.auth, id);
      return x.lastCheckAt && x.nextCheckAt ? x : undefined;
    }, 15_000);
    const slot = Date.parse(d.nextCheckAt ?? '');
    expect(slot).toBe(nextZoned(Date.parse(d.lastCheckAt ?? ''), 'America/New_York', ['Sun'], '18:30'));

    await queue().removeJobScheduler(id);
    expect(await queue().getJobScheduler(id)).toBeFalsy();
    const scheduler = stack.monitorScheduler;
    if (!scheduler) throw new Error('the stack runs no monitor scheduler');
    const result = await scheduler.reconciler.runOnce({ force: true });
    expect(result.created).toBeGreaterThanOrEqual(1);
    const back = await queue().getJobScheduler(id);
    expect(back).toMatchObject({ pattern: '30 18 * * 0', tz: 'America/New_York' });
    expect(Number(back?.next)).toBe(slot);
  });
  async function placed(auth: Auth, id: string): Promise<Detail> {
    return pollUntil(async () => {
      const d = await detail(auth, id);
      return d.lastCheckAt && d.nextCheckAt ? d : undefined;
    }, 15_000);
  }

  test('PATCH validates as create does: 400 naming the field, 404, 409 for a cancelled monitor', async () => {
    const a = await createTestAccount({ credits: 10 });
    site.set('/patch-bad', page('Open Monday to Friday, from nine in the morning to five in the afternoon.'));
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(a.auth)
      .send({ url: `${site.url}/patch-bad`, interval: 'daily' })
      .expect(201);
    const id = res.body.data.id as string;
    created.push({ auth: a.auth, id });
    // The baseline check runs on the monitor-check worker; wait for it so the balance below is
    // settled (deleting first can leave the baseline unrun and the balance at 10).
    await placed(a.auth, id);
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^Nothing to change/],
      [{ interval: 'daily', cron: '0 9 * * *' }, /^interval: give either interval or cron, not both/],
      [{ cron: '*/15 * * * *' }, /^cron: .*more than once an hour/],
      [{ timezone: 'Europe/Paris' }, /^timezone: only applies to a cron schedule/],
      [{ cron: '0 9 * * *', timezone: 'Nowhere/Land' }, /^timezone: /],
      [{ interval: 'monthly' }, /^interval: must be one of hourly, daily, weekly/],
      [{ ignoreText: ['ok', '/(a+)+$/'] }, /^ignoreText\.1: /],
      [{ threshold: 2 }, /^threshold: /],
      [{ goal: '' }, /^goal: /],
      [{ webhookFormat: 'teams' }, /^webhookFormat: /],
      [{ url: `${site.url}/other` }, /url/],
    ];
    for (const [body, message] of bad) {
      const r = await request(stack.url).patch(`/v1/monitor/${id}`).set(a.auth).send(body);
      expect([r.status, r.body.success]).toEqual([400, false]);
      expect(r.body.error).toMatch(message);
    }
    const ftp = await request(stack.url)
      .patch(`/v1/monitor/${id}`)
      .set(a.auth)
      .send({ webhookUrl: 'ftp://x.example/h' });
    expect(ftp.status).toBe(400);
    // Nothing changed.
    expect(await detail(a.auth, id)).toMatchObject({ interval: 'daily', status: 'active' });
    const other = await createTestAccount({ credits: 1 });
    await request(stack.url)
      .patch(`/v1/monitor/${id}`)
      .set(other.auth)
      .send({ interval: 'weekly' })
      .expect(404);
    await request(stack.url)
      .patch('/v1/monitor/00000000-0000-4000-8000-000000000000')
      .set(a.auth)
      .send({ interval: 'weekly' })
      .expect(404);
    await request(stack.url).delete(`/v1/monitor/${id}`).set(a.auth).expect(200);
    const gone = await request(stack.url).patch(`/v1/monitor/${id}`).set(a.auth).send({ interval: 'weekly' });
    expect([gone.status, gone.body.code]).toEqual([409, 'CONFLICT']);
    expect(await balanceOf(a.accountId)).toBe(9); // the baseline only: PATCH is free
  });

  test('PATCH moves a monitor between interval and cron schedules; the scheduler follows', async () => {
    const a = await createTestAccount({ credits: 10 });
    site.set(
      '/patch-schedule',
      page('Open Monday to Friday, from nine in the morning to five in the afternoon.'),
    );
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(a.auth)
      .send({ url: `${site.url}/patch-schedule`, interval: 'daily' })
      .expect(201);
    const id = res.body.data.id as string;
    created.push({ auth: a.auth, id });
    const before = await placed(a.auth, id);

    const patchedAt = Date.now();
    const toCron = await request(stack.url)
      .patch(`/v1/monitor/${id}`)
      .set(a.auth)
      .send({ cron: '0 9 * * 1-5', timezone: 'Europe/Paris' })
      .expect(200);
    expect(toCron.body.data).toMatchObject({
      interval: 'cron',
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
    });
    const paris = await pollUntil(async () => {
      const d = await detail(a.auth, id);
      return d.nextCheckAt ? d : undefined;
    }, 15_000);
    const slot = Date.parse(paris.nextCheckAt ?? '');
    expect(slot).toBe(nextParisWeekdayNine(patchedAt));
    expect(await queue().getJobScheduler(id)).toMatchObject({ pattern: '0 9 * * 1-5', tz: 'Europe/Paris' });
    expect(Number((await queue().getJobScheduler(id))?.next)).toBe(slot);
    expect(paris.checkCount).toBe(before.checkCount); // rescheduling checks nothing

    // timezone alone re-reads the same cron in another zone.
    const ny = await request(stack.url)
      .patch(`/v1/monitor/${id}`)
      .set(a.auth)
      .send({ timezone: 'America/New_York' })
      .expect(200);
    expect(ny.body.data).toMatchObject({ cron: '0 9 * * 1-5', timezone: 'America/New_York' });
    const s = await pollUntil(async () => {
      const x = await queue().getJobScheduler(id);
      return x?.tz === 'America/New_York' ? x : undefined;
    }, 15_000);
    const nyTime = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(Number(s.next)));
    expect(nyTime).toBe('09:00');

    // Back to an interval: no cron left, a plain every-scheduler.
    const weekly = await request(stack.url)
      .patch(`/v1/monitor/${id}`)
      .set(a.auth)
      .send({ interval: 'weekly' })
      .expect(200);
    expect(weekly.body.data.interval).toBe('weekly');
    expect(weekly.body.data.cron).toBeUndefined();
    expect(weekly.body.data.timezone).toBeUndefined();
    const back = await pollUntil(async () => {
      const x = await queue().getJobScheduler(id);
      return x && !x.pattern ? x : undefined;
    }, 15_000);
    expect(Number(back.every)).toBe(7 * 24 * HOUR_MS);
    const d = await pollUntil(async () => {
      const x = await detail(a.auth, id);
      return x.nextCheckAt && Date.parse(x.nextCheckAt) === Number(back.next) ? x : undefined;
    }, 15_000);
    expect(d.interval).toBe('weekly');
    expect(await balanceOf(a.accountId)).toBe(9);
  });

  test('PATCH changes rules and webhook; new ignoreText rules make the next check a new baseline', async () => {
    const a = await createTestAccount({ credits: 10 });
    site.set('/patch-rules', page('Opening hours change with the seasons and on public holidays.'));
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(a.auth)
      .send({
        url: `${site.url}/patch-rules`,
        cron: '0 6 * * *',
        webhookUrl: `${site.url}/hook`,
        goal: 'opening hours',
      })
      .expect(201);
    const id = res.body.data.id as string;
    created.push({ auth: a.auth, id });
    const base = await placed(a.auth, id);

    const changed = await request(stack.url)
      .patch(`/v1/monitor/${id}`)
      .set(a.auth)
      .send({ ignoreText: ['/^Opening hours/'], threshold: 0.3, webhookFormat: 'slack', goal: null })
      .expect(200);
    expect(changed.body.data).toMatchObject({
      ignoreText: ['/^Opening hours/'],
      threshold: 0.3,
      webhookFormat: 'slack',
    });
    expect(changed.body.data.goal).toBeUndefined();
    // The schedule was not touched: same scheduler, same slot.
    expect(changed.body.data.nextCheckAt).toBe(base.nextCheckAt);

    // The next check (its slot fired now) hashes the page without the ignored line: a new baseline,
    // not a change, although the hashed content differs from the last one.
    const job = await queue().getJob(`repeat:${id}:${Date.parse(base.nextCheckAt ?? '')}`);
    if (!job) throw new Error('no delayed job for the next slot');
    await job.promote();
    const after = await pollUntil(async () => {
      const d = await detail(a.auth, id);
      return d.checkCount >= 2 ? d : undefined;
    }, 15_000);
    expect(after.changes).toEqual([]);
    expect(after.checks[0]?.changed).toBe(false);
    expect(after.checks[0]?.hash).not.toBe(after.checks[1]?.hash);

    const cleared = await request(stack.url)
      .patch(`/v1/monitor/${id}`)
      .set(a.auth)
      .send({ webhookUrl: null, ignoreText: [], threshold: 0 })
      .expect(200);
    expect(cleared.body.data.webhookUrl).toBeUndefined();
    expect(cleared.body.data.ignoreText).toBeUndefined();
    expect(cleared.body.data.threshold).toBeUndefined();
    expect(await balanceOf(a.accountId)).toBe(8); // two checks, PATCHes free
  });
});
