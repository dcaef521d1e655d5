/**
 * Monitors that speak only when it matters (docs/api.md "Monitors"): ignoreText, threshold, the
 * diff of every change and the goal's judge (the fake Anthropic server), through the real stack
 * at an accelerated interval.
 */
import { randomUUID } from 'node:crypto';
import { createDb } from '@wcs/db';
import { type FakeLlmServer, startFakeAnthropic, textSeenByModel } from '@wcs/testing';
import request from 'supertest';
import { createTestAccount, pollUntil, type Stack, startStack, TEST_DATABASE_URL } from './harness';
import { startHookReceiver, startMutableSite } from './monitor-sites';

/** hourly = 2 s in this file. */
const INTERVAL_MS = 2_000;
const SCALE = String(INTERVAL_MS / 3_600_000);
const MODEL_TIMEOUT_MS = 1_000;

type Diff = { added: string[]; removed: string[]; text: string; truncated: boolean };
type Judgement = { relevant: boolean; reason: string };
type Detail = {
  checkCount: number;
  lastCheckAt: string | null;
  ignoreText?: string[];
  threshold?: number;
  goal?: string;
  changes: Array<{ detectedAt: string; snapshot: string; diff: Diff | null; judgement?: Judgement }>;
  checks: Array<{ changed: boolean; hash?: string; code?: string; error?: string; judgement?: Judgement }>;
  irrelevantChanges: Array<{ checkedAt: string; judgement: Judgement }>;
  webhookDeliveries: Array<{ statusCode: number | null }>;
};
type Auth = { Authorization: string };

const page = (...paragraphs: string[]): string =>
  `<!doctype html><html><head><title>Watched</title></head><body><nav><a href="/">Home</a></nav><main><h1>Prices</h1>${paragraphs
    .map((p) => `<p>${p}</p>`)
    .join('')}</main><footer>© Example</footer></body></html>`;

/** Long enough for the main-content extractor to keep it (a short page can read as no content). */
const basic = (price: string): string =>
  `The basic plan costs ${price} per month and includes email support for every customer.`;

const HOURS = 'Open Monday to Friday, from nine in the morning to five in the afternoon.';

const words = (prefix: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

/** How the fake model answers, per goal (the first word of the goal names the monitor). */
type Mode = 'yes' | 'no' | 'malformed' | 'slow';

describe('monitor rules: ignoreText, threshold, diffs and the goal', () => {
  let stack: Stack;
  let site: Awaited<ReturnType<typeof startMutableSite>>;
  let receiver: Awaited<ReturnType<typeof startHookReceiver>>;
  let fake: FakeLlmServer;
  const modes = new Map<string, Mode>();
  const created: Array<{ auth: Auth; id: string }> = [];

  beforeAll(async () => {
    [site, receiver, fake] = await Promise.all([
      startMutableSite(),
      startHookReceiver(),
      startFakeAnthropic(),
    ]);
    fake.script((req) => {
      const goalKey = /Goal: ([\w-]+)/.exec(textSeenByModel(req))?.[1] ?? '';
      const mode = modes.get(goalKey);
      if (mode === 'yes') return { data: { relevant: true, reason: 'The price of the basic plan changed.' } };
      if (mode === 'no') return { data: { relevant: false, reason: 'Only the opening hours changed.' } };
      if (mode === 'slow') return { data: { relevant: true, reason: 'late' }, delayMs: MODEL_TIMEOUT_MS * 5 };
      return { text: 'Well, it depends on what you mean by relevant.' };
    });
    stack = await startStack({
      monitorScheduler: true,
      webhookDispatcher: true,
      worker: false,
      env: {
        MONITOR_INTERVAL_SCALE: SCALE,
        MONITOR_RESUME_SWEEP_MS: '300',
        WORKER_CONCURRENCY: '4',
        WEBHOOK_TIMEOUT_MS: '3000',
        ANTHROPIC_API_KEY: 'sk-ant-test-key',
        ANTHROPIC_BASE_URL: fake.url,
        EXTRACT_MODEL_TIMEOUT_MS: String(MODEL_TIMEOUT_MS),
        EXTRACT_MODEL_MAX_RETRIES: '0',
      },
    });
  });

  afterAll(async () => {
    for (const m of created) await request(stack.url).delete(`/v1/monitor/${m.id}`).set(m.auth);
    await stack?.close();
    await Promise.all([receiver?.close(), site?.close(), fake?.close()]);
  });

  async function detail(auth: Auth, id: string): Promise<Detail> {
    const res = await request(stack.url).get(`/v1/monitor/${id}`).set(auth).expect(200);
    return res.body.data as Detail;
  }

  async function create(auth: Auth, body: Record<string, unknown>): Promise<string> {
    const res = await request(stack.url).post('/v1/monitor').set(auth).send(body).expect(201);
    created.push({ auth, id: res.body.data.id as string });
    const id = res.body.data.id as string;
    await pollUntil(async () => ((await detail(auth, id)).lastCheckAt ? true : undefined), 15_000);
    return id;
  }

  /** Wait for `n` more successful or failed checks of a monitor than it has now. */
  async function moreChecks(auth: Auth, id: string, n: number): Promise<Detail> {
    const start = (await detail(auth, id)).checkCount;
    return pollUntil(
      async () => {
        const d = await detail(auth, id);
        return d.checkCount >= start + n ? d : undefined;
      },
      n * INTERVAL_MS * 4 + 10_000,
    );
  }

  async function firstChange(auth: Auth, id: string): Promise<Detail> {
    return pollUntil(async () => {
      const d = await detail(auth, id);
      return d.changes.length > 0 && d.webhookDeliveries.length > 0 ? d : undefined;
    }, 20_000);
  }

  const hooksTo = (path: string) =>
    receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.raw) as Record<string, unknown>);

  /**
   * One snapshot (a single statement: a check and its charge commit together) of a monitor's checks
   * and what its account paid for them.
   */
  async function accounting(
    accountId: string,
    monitorId: string,
  ): Promise<{
    ok: number;
    failed: number;
    checkCharges: number;
    judgeCharges: number;
    spent: number;
    balance: number;
  }> {
    const db = createDb(TEST_DATABASE_URL);
    try {
      const rows = await db.prisma.$queryRaw<Array<Record<string, bigint | number>>>`
        SELECT
          (SELECT count(*) FROM monitor_checks WHERE monitor_id = ${monitorId}::uuid AND error_code IS NULL) AS ok,
          (SELECT count(*) FROM monitor_checks WHERE monitor_id = ${monitorId}::uuid AND error_code IS NOT NULL) AS failed,
          (SELECT count(*) FROM credit_ledger WHERE account_id = ${accountId}::uuid AND reason = 'monitor_check') AS "checkCharges",
          (SELECT count(*) FROM credit_ledger WHERE account_id = ${accountId}::uuid AND reason = 'monitor_judge') AS "judgeCharges",
          (SELECT COALESCE(-SUM(amount), 0) FROM credit_ledger WHERE account_id = ${accountId}::uuid
             AND reason IN ('monitor_check', 'monitor_judge')) AS spent,
          (SELECT balance FROM accounts WHERE id = ${accountId}::uuid) AS balance`;
      const r = rows[0]!;
      const n = (k: string) => Number(r[k]);
      return {
        ok: n('ok'),
        failed: n('failed'),
        checkCharges: n('checkCharges'),
        judgeCharges: n('judgeCharges'),
        spent: n('spent'),
        balance: n('balance'),
      };
    } finally {
      await db.close();
    }
  }

  async function ledger(accountId: string, reason: string): Promise<number> {
    const db = createDb(TEST_DATABASE_URL);
    try {
      return await db.prisma.creditLedger.count({ where: { accountId, reason } });
    } finally {
      await db.close();
    }
  }

  test('invalid rules are 400s naming the field; valid ones come back in the monitor', async () => {
    const a = await createTestAccount({ credits: 100 });
    const url = `${site.url}/valid`;
    site.set('/valid', page('Hello there.'));
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ ignoreText: ['fine', '/a(/'] }, /^ignoreText\.1: \/a\(\/ is not a valid regular expression/],
      [{ ignoreText: ['/(a+)+$/'] }, /^ignoreText\.0: .*backtrack catastrophically/],
      [{ ignoreText: ['/x/g'] }, /^ignoreText\.0: .*flags/],
      [{ ignoreText: ['x'.repeat(201)] }, /^ignoreText\.0: .*longer than 200/],
      [{ ignoreText: 'Last updated' }, /^ignoreText: /],
      [{ ignoreText: Array.from({ length: 51 }, (_, i) => `r${i}`) }, /^ignoreText: .*50/],
      [{ threshold: 1.5 }, /^threshold: /],
      [{ threshold: -0.1 }, /^threshold: /],
      [{ threshold: '0.5' }, /^threshold: /],
      [{ goal: 'g'.repeat(1_001) }, /^goal: must be at most 1000 characters/],
      // The length is the goal as sent, whitespace included (it is trimmed after).
      [{ goal: ` ${'g'.repeat(1_000)}` }, /^goal: must be at most 1000 characters/],
      [{ goal: '' }, /^goal: must not be empty/],
      [{ goal: '   ' }, /^goal: must not be empty/],
      [{ webhookFormat: 'teams' }, /^webhookFormat: must be one of json, slack, discord/],
    ];
    for (const [extra, message] of bad) {
      const res = await request(stack.url)
        .post('/v1/monitor')
        .set(a.auth)
        .send({ url, ...extra });
      expect([res.status, res.body.success]).toEqual([400, false]);
      expect(res.body.error).toMatch(message);
    }
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(a.auth)
      .send({
        url,
        ignoreText: ['Last updated', '/^\\d+ visitors$/i'],
        threshold: 0.25,
        goal: 'g'.repeat(1_000),
      })
      .expect(201);
    created.push({ auth: a.auth, id: res.body.data.id as string });
    expect(res.body.data).toMatchObject({
      ignoreText: ['Last updated', '/^\\d+ visitors$/i'],
      threshold: 0.25,
      goal: 'g'.repeat(1_000),
    });
    const d = await detail(a.auth, res.body.data.id as string);
    expect(d).toMatchObject({ ignoreText: ['Last updated', '/^\\d+ visitors$/i'], threshold: 0.25 });
  });

  test('ignored lines raise nothing; a real change raises one webhook whose diff leaves them out', async () => {
    const acct = await createTestAccount({ credits: 100 });
    // The counter also stands in a list item: the anchored rule matches it without its bullet.
    const v = (n: number, updated: string, price: string) =>
      page(basic(price), `Last updated: ${updated}`, `${n} visitors today`).replace(
        '</main>',
        `<ul><li>${n * 3} visitors</li><li>Free shipping on every order over fifty dollars.</li></ul></main>`,
      );
    site.set('/ignore', v(10, 'Monday', 'ten dollars'));
    const id = await create(acct.auth, {
      url: `${site.url}/ignore`,
      interval: 'hourly',
      webhookUrl: `${receiver.url}/ignore`,
      ignoreText: ['last updated', '/^\\d+ visitors today$/', '/^\\d+ visitors$/'],
    });
    site.set('/ignore', v(11, 'Tuesday', 'ten dollars'));
    const quiet = await moreChecks(acct.auth, id, 2);
    expect(quiet.changes).toEqual([]);
    expect(hooksTo('/ignore')).toHaveLength(0);
    site.set('/ignore', v(12, 'Wednesday', 'twelve dollars'));
    const changed = await firstChange(acct.auth, id);
    const later = await moreChecks(acct.auth, id, 2);
    expect(later.changes).toHaveLength(1);
    const hooks = hooksTo('/ignore');
    expect(hooks).toHaveLength(1);
    const diff = hooks[0]!.diff as Diff;
    expect(diff.added).toEqual([basic('twelve dollars')]);
    expect(diff.removed).toEqual([basic('ten dollars')]);
    expect(diff.text).toContain(`-${basic('ten dollars')}`);
    expect(diff.text).toContain(`+${basic('twelve dollars')}`);
    expect(diff.text).not.toMatch(/Last updated|visitors/i);
    expect(hooks[0]).toEqual({
      monitorId: id,
      url: `${site.url}/ignore`,
      detectedAt: changed.changes[0]!.detectedAt,
      snapshot: changed.changes[0]!.snapshot,
      diff: { added: diff.added, removed: diff.removed, text: diff.text },
    });
    // The change record keeps the same diff.
    expect(changed.changes[0]!.diff).toEqual({ ...diff, truncated: false });
  });

  test('a change below the threshold raises nothing; a large one raises one', async () => {
    const acct = await createTestAccount({ credits: 100 });
    const first = words('alpha', 20);
    const second = words('beta', 20);
    site.set('/threshold', page(first, second));
    const id = await create(acct.auth, {
      url: `${site.url}/threshold`,
      interval: 'hourly',
      webhookUrl: `${receiver.url}/threshold`,
      threshold: 0.3,
    });
    // One word of 40 replaced: 2 / 80 of the words changed.
    const small = first.replace('alpha7', 'gamma7');
    site.set('/threshold', page(small, second));
    const quiet = await moreChecks(acct.auth, id, 2);
    expect(quiet.changes).toEqual([]);
    expect(hooksTo('/threshold')).toHaveLength(0);
    // Half the words replaced (measured against the baseline, which a small change leaves in place).
    site.set('/threshold', page(small, words('delta', 20)));
    const changed = await firstChange(acct.auth, id);
    await moreChecks(acct.auth, id, 2);
    expect(hooksTo('/threshold')).toHaveLength(1);
    expect(changed.changes[0]!.diff).toMatchObject({
      added: [small, words('delta', 20)],
      removed: [first, second],
    });
  });

  test('a change judged irrelevant to the goal raises nothing, its judgement kept on the check', async () => {
    const acct = await createTestAccount({ credits: 100 });
    const key = `goal-no-${randomUUID().slice(0, 8)}`;
    modes.set(key, 'no');
    site.set('/goal-no', page(basic('ten dollars'), 'Open Monday to Friday.'));
    const goal = `${key}: tell me when the price of the basic plan changes`;
    const id = await create(acct.auth, {
      url: `${site.url}/goal-no`,
      interval: 'hourly',
      webhookUrl: `${receiver.url}/goal-no`,
      goal,
    });
    site.set('/goal-no', page(basic('ten dollars'), 'Open Monday to Saturday.'));
    const judged = await pollUntil(async () => {
      const d = await detail(acct.auth, id);
      return d.checks.some((c) => c.judgement) ? d : undefined;
    }, 20_000);
    expect(judged.checks.find((c) => c.judgement)).toMatchObject({
      changed: false,
      judgement: { relevant: false, reason: 'Only the opening hours changed.' },
    });
    // The model was asked with the goal, the diff and the new content.
    const asked = fake.requests.map(textSeenByModel).filter((t) => t.includes(key));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(`Goal: ${goal}`);
    expect(asked[0]).toContain('+Open Monday to Saturday.');
    expect(asked[0]).toContain('-Open Monday to Friday.');
    expect(asked[0]).toContain('<page>');
    // The baseline moved on: later checks of the same page ask nothing and raise nothing.
    const later = await moreChecks(acct.auth, id, 2);
    expect(later.changes).toEqual([]);
    expect(hooksTo('/goal-no')).toHaveLength(0);
    // Listed apart too, so it stays in view after the last 20 checks have moved past it.
    expect(later.irrelevantChanges).toEqual([
      {
        checkedAt: expect.any(String),
        judgement: { relevant: false, reason: 'Only the opening hours changed.' },
      },
    ]);
    expect(fake.requests.map(textSeenByModel).filter((t) => t.includes(key))).toHaveLength(1);
    // The judge was billed like an extract (on top of the check).
    expect(await ledger(acct.accountId, 'monitor_judge')).toBe(1);
  });

  test('a change judged relevant raises one webhook carrying the judgement, kept in the change record', async () => {
    const acct = await createTestAccount({ credits: 100 });
    const key = `goal-yes-${randomUUID().slice(0, 8)}`;
    modes.set(key, 'yes');
    site.set('/goal-yes', page(basic('ten dollars'), HOURS));
    const id = await create(acct.auth, {
      url: `${site.url}/goal-yes`,
      interval: 'hourly',
      webhookUrl: `${receiver.url}/goal-yes`,
      goal: `${key}: price changes`,
    });
    site.set('/goal-yes', page(basic('twelve dollars'), HOURS));
    const changed = await firstChange(acct.auth, id);
    const judgement = { relevant: true, reason: 'The price of the basic plan changed.' };
    expect(changed.changes[0]!.judgement).toEqual(judgement);
    const hooks = hooksTo('/goal-yes');
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({ monitorId: id, judgement });
    expect((hooks[0]!.diff as Diff).added).toEqual([basic('twelve dollars')]);
    expect(await ledger(acct.accountId, 'monitor_judge')).toBe(1);
  });

  test.each([
    ['malformed', 'EXTRACTION_FAILED'],
    ['slow', 'TIMEOUT'],
  ] as const)(
    'a %s answer fails the check (not billed, not dropped): the next check judges again',
    async (mode, code) => {
      const acct = await createTestAccount({ credits: 100 });
      const key = `goal-${mode}-${randomUUID().slice(0, 8)}`;
      modes.set(key, mode);
      const path = `/goal-${mode}`;
      site.set(path, page(basic('ten dollars'), HOURS));
      const id = await create(acct.auth, {
        url: `${site.url}${path}`,
        interval: 'hourly',
        webhookUrl: `${receiver.url}${path}`,
        goal: `${key}: price changes`,
      });
      site.set(path, page(basic('twelve dollars'), HOURS));
      const failed = await pollUntil(async () => {
        const d = await detail(acct.auth, id);
        return d.checks.some((c) => c.code === code) ? d : undefined;
      }, 20_000);
      expect(failed.changes).toEqual([]);
      expect(failed.checks.find((c) => c.code === code)?.error).toMatch(/judge|model/i);
      expect(hooksTo(path)).toHaveLength(0);
      expect(await ledger(acct.accountId, 'monitor_judge')).toBe(0);
      // Credits: every successful check paid 1, no failed one paid anything, the judge nothing.
      const during = await accounting(acct.accountId, id);
      expect(during.failed).toBeGreaterThanOrEqual(1);
      expect(during.checkCharges).toBe(during.ok);
      expect(during.judgeCharges).toBe(0);
      expect(during.spent).toBe(during.ok);
      expect(during.balance).toBe(100 - during.ok);
      // The model answers again: the same change is judged and raised (the baseline waited for it).
      modes.set(key, 'yes');
      const changed = await firstChange(acct.auth, id);
      expect(changed.changes).toHaveLength(1);
      expect(changed.changes[0]!.judgement?.relevant).toBe(true);
      expect(changed.changes[0]!.diff?.removed).toEqual([basic('ten dollars')]);
      expect(hooksTo(path)).toHaveLength(1);
      expect(await ledger(acct.accountId, 'monitor_judge')).toBe(1);
      // The judged check paid 1 + 5; the failed ones still nothing.
      const after = await accounting(acct.accountId, id);
      expect(after.failed).toBeGreaterThanOrEqual(during.failed);
      expect(after.checkCharges).toBe(after.ok);
      expect(after.judgeCharges).toBe(1);
      expect(after.spent).toBe(after.ok + 5);
      expect(after.balance).toBe(100 - after.spent);
    },
  );

  test.each([
    ['slack', 'text'],
    ['discord', 'content'],
  ] as const)('webhookFormat %s posts a channel message with the diff', async (format, field) => {
    const acct = await createTestAccount({ credits: 100 });
    const path = `/chat-${format}`;
    site.set(path, page(basic('ten dollars'), HOURS));
    const id = await create(acct.auth, {
      url: `${site.url}${path}`,
      interval: 'hourly',
      webhookUrl: `${receiver.url}${path}`,
      webhookFormat: format,
    });
    expect((await detail(acct.auth, id)) as unknown).toMatchObject({ webhookFormat: format });
    site.set(path, page(basic('twelve dollars'), HOURS));
    await firstChange(acct.auth, id);
    const hooks = hooksTo(path);
    expect(hooks).toHaveLength(1);
    expect(Object.keys(hooks[0]!)).toEqual([field]);
    const message = String(hooks[0]![field]);
    expect(message).toContain(`Change detected on ${site.url}${path}`);
    expect(message).toContain(`- ${basic('ten dollars')}`);
    expect(message).toContain(`+ ${basic('twelve dollars')}`);
  });
});
