/**
 * The goal's judge through an OpenAI-compatible model server (the fake one), whose answer is text,
 * not a tool call: parsed and repaired like an extract's answer. Relevant raises one webhook,
 * irrelevant raises nothing, prose fails the check unbilled (docs/api.md "Monitors").
 */
import { randomUUID } from 'node:crypto';
import { createDb } from '@wcs/db';
import { type FakeLlmServer, startFakeOpenAi, textSeenByModel } from '@wcs/testing';
import request from 'supertest';
import { createTestAccount, pollUntil, type Stack, startStack, TEST_DATABASE_URL } from './harness';
import { startHookReceiver, startMutableSite } from './monitor-sites';

/** hourly = 2 s in this file. */
const INTERVAL_MS = 2_000;

type Judgement = { relevant: boolean; reason: string };
type Detail = {
  changes: Array<{ detectedAt: string; judgement?: Judgement }>;
  checks: Array<{ changed: boolean; code?: string; error?: string; judgement?: Judgement }>;
  webhookDeliveries: Array<{ statusCode: number | null }>;
  lastCheckAt: string | null;
  checkCount: number;
};
type Auth = { Authorization: string };

const page = (...paragraphs: string[]): string =>
  `<!doctype html><html><head><title>Watched</title></head><body><main><h1>Prices</h1>${paragraphs
    .map((p) => `<p>${p}</p>`)
    .join('')}</main></body></html>`;

const basic = (price: string): string =>
  `The basic plan costs ${price} per month and includes email support for every customer.`;
const HOURS = 'Open Monday to Friday, from nine in the morning to five in the afternoon.';

type Mode = 'yes' | 'no' | 'prose';

describe('monitor goal judged by an OpenAI-compatible model (text answers)', () => {
  let stack: Stack;
  let site: Awaited<ReturnType<typeof startMutableSite>>;
  let receiver: Awaited<ReturnType<typeof startHookReceiver>>;
  let fake: FakeLlmServer;
  const modes = new Map<string, Mode>();
  const created: Array<{ auth: Auth; id: string }> = [];

  beforeAll(async () => {
    [site, receiver, fake] = await Promise.all([startMutableSite(), startHookReceiver(), startFakeOpenAi()]);
    fake.script((req) => {
      const mode = modes.get(/Goal: ([\w-]+)/.exec(textSeenByModel(req))?.[1] ?? '');
      // A local model's habits: the JSON in a code fence after a sentence, the boolean as text.
      if (mode === 'yes')
        return {
          text: 'Here is my answer:\n```json\n{"relevant": "true", "reason": "The price of the basic plan changed."}\n```',
        };
      if (mode === 'no') return { data: { relevant: false, reason: 'Only the opening hours changed.' } };
      return { text: 'Well, it depends on what you mean by relevant.' };
    });
    stack = await startStack({
      monitorScheduler: true,
      webhookDispatcher: true,
      worker: false,
      env: {
        MONITOR_INTERVAL_SCALE: String(INTERVAL_MS / 3_600_000),
        MONITOR_RESUME_SWEEP_MS: '300',
        WEBHOOK_TIMEOUT_MS: '3000',
        EXTRACT_PROVIDER: 'openai',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        EXTRACT_MODEL: 'llama-fake',
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

  /** A monitor of `path` with a goal answered in `mode`, after its first check; then the page changes. */
  async function watch(
    path: string,
    mode: Mode,
  ): Promise<{ acct: { auth: Auth; accountId: string }; id: string }> {
    const acct = await createTestAccount({ credits: 100 });
    const key = `goal-${mode}-${randomUUID().slice(0, 8)}`;
    modes.set(key, mode);
    site.set(path, page(basic('ten dollars'), HOURS));
    const res = await request(stack.url)
      .post('/v1/monitor')
      .set(acct.auth)
      .send({
        url: `${site.url}${path}`,
        interval: 'hourly',
        webhookUrl: `${receiver.url}${path}`,
        goal: `${key}: price changes`,
      })
      .expect(201);
    const id = res.body.data.id as string;
    created.push({ auth: acct.auth, id });
    await pollUntil(async () => ((await detail(acct.auth, id)).lastCheckAt ? true : undefined), 30_000);
    site.set(path, page(basic('twelve dollars'), HOURS));
    return { acct, id };
  }

  async function ledger(accountId: string, reason: string): Promise<number> {
    const db = createDb(TEST_DATABASE_URL);
    try {
      return await db.prisma.creditLedger.count({ where: { accountId, reason } });
    } finally {
      await db.close();
    }
  }

  const hooksTo = (path: string) =>
    receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.raw) as Record<string, unknown>);

  test('a text answer judging the change relevant raises one webhook carrying the judgement', async () => {
    const { acct, id } = await watch('/oa-yes', 'yes');
    const changed = await pollUntil(async () => {
      const d = await detail(acct.auth, id);
      return d.changes.length > 0 && d.webhookDeliveries.length > 0 ? d : undefined;
    }, 20_000);
    const judgement = { relevant: true, reason: 'The price of the basic plan changed.' };
    expect(changed.changes[0]!.judgement).toEqual(judgement);
    const hooks = hooksTo('/oa-yes');
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({ monitorId: id, judgement });
    expect(await ledger(acct.accountId, 'monitor_judge')).toBe(1);
  });

  test('a text answer judging it irrelevant raises nothing, the judgement kept on the check', async () => {
    const { acct, id } = await watch('/oa-no', 'no');
    const judged = await pollUntil(async () => {
      const d = await detail(acct.auth, id);
      return d.checks.some((c) => c.judgement) ? d : undefined;
    }, 20_000);
    expect(judged.checks.find((c) => c.judgement)).toMatchObject({
      changed: false,
      judgement: { relevant: false, reason: 'Only the opening hours changed.' },
    });
    expect(judged.changes).toEqual([]);
    expect(hooksTo('/oa-no')).toHaveLength(0);
    expect(await ledger(acct.accountId, 'monitor_judge')).toBe(1);
  });

  test('prose instead of JSON fails the check (EXTRACTION_FAILED), unbilled, nothing raised', async () => {
    const { acct, id } = await watch('/oa-prose', 'prose');
    const failed = await pollUntil(async () => {
      const d = await detail(acct.auth, id);
      return d.checks.some((c) => c.code === 'EXTRACTION_FAILED') ? d : undefined;
    }, 20_000);
    expect(failed.checks.find((c) => c.code === 'EXTRACTION_FAILED')?.error).toMatch(/judge/);
    expect(failed.changes).toEqual([]);
    expect(hooksTo('/oa-prose')).toHaveLength(0);
    expect(await ledger(acct.accountId, 'monitor_judge')).toBe(0);
  });
});
