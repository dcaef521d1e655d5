import { CreditsRepository, createDb } from '@wcs/db';
import { type FixtureSite, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import { balanceOf, createTestAccount, type Stack, startStack, TEST_DATABASE_URL } from './harness';

let stack: Stack;
let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 3 });
  stack = await startStack({ env: { WORKER_CONCURRENCY: '8' } });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

describe('credits', () => {
  it('60 parallel scrapes on a 20-credit account: exactly 20 succeed, balance 0, ledger matches', async () => {
    const account = await createTestAccount({ credits: 20 });
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        request(stack.url)
          .post('/v1/scrape')
          .set(account.auth)
          .send({ url: `${site.url}/article/${i % 3}?n=${i}`, engine: 'fetch' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    for (const r of responses.filter((x) => x.status === 402))
      expect(r.body.code).toBe('INSUFFICIENT_CREDITS');
    expect(await balanceOf(account.accountId)).toBe(0);

    const db = createDb(TEST_DATABASE_URL);
    try {
      const ledger = await new CreditsRepository(db).ledger(account.accountId, 1000);
      const sum = ledger.reduce((acc, row) => acc + row.amount, 0);
      expect(sum).toBe(0);
      expect(ledger.filter((r) => r.reason === 'scrape')).toHaveLength(20);
    } finally {
      await db.close();
    }
  });

  it('402 at once when the balance is 0', async () => {
    const account = await createTestAccount({ credits: 0 });
    const res = await request(stack.url).post('/v1/scrape').set(account.auth).send({ url: site.url });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ success: false, code: 'INSUFFICIENT_CREDITS' });
  });
});

describe('rate limiting', () => {
  it('429 with Retry-After past the plan limit', async () => {
    const limited = await startStack({
      env: { RATE_LIMIT_FREE: '3', RATE_LIMIT_WINDOW_SECONDS: '60' },
      worker: false,
    });
    try {
      const account = await createTestAccount({ credits: 10 });
      const statuses: number[] = [];
      let last: request.Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await request(limited.url)
          .get('/v1/batch/scrape/00000000-0000-0000-0000-000000000000')
          .set(account.auth);
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 3)).toEqual([404, 404, 404]);
      expect(statuses[3]).toBe(429);
      expect(last?.status).toBe(429);
      expect(Number(last?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(last?.body.code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});

describe('private targets', () => {
  it('are refused by default, without a charge', async () => {
    const strict = await startStack({ env: { ALLOW_PRIVATE_TARGETS: 'false' } });
    try {
      const account = await createTestAccount({ credits: 5 });
      for (const url of [`${site.url}/`, 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/']) {
        const res = await request(strict.url)
          .post('/v1/scrape')
          .set(account.auth)
          .send({ url, engine: 'fetch' });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('TARGET_FORBIDDEN');
      }
      expect(await balanceOf(account.accountId)).toBe(5);
    } finally {
      await strict.close();
    }
  });
});

describe('admin and health', () => {
  it('GET /healthz answers 200 when the stores are up', async () => {
    const res = await request(stack.url).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, database: true, redis: true });
  });

  it('GET /v1/openapi.json describes the API without auth, bodies generated from the validators', async () => {
    const res = await request(stack.url).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const scrape = res.body.paths['/v1/scrape'].post;
    expect(scrape.requestBody.content['application/json'].schema.required).toEqual(['url']);
    expect(Object.keys(scrape.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '402', '429', '504']),
    );
    for (const path of ['/v1/batch/scrape/{id}', '/v1/crawl/{id}'])
      expect(res.body.paths[path].get).toBeDefined();
    for (const path of ['/v1/crawl', '/v1/map', '/v1/search'])
      expect(res.body.paths[path].post).toBeDefined();
    expect(res.body.paths['/v1/crawl/{id}'].delete).toBeDefined();
  });

  it('GET /metrics needs ADMIN_TOKEN and reports requests by route pattern and queue depths', async () => {
    expect((await request(stack.url).get('/metrics')).status).toBe(401);
    const res = await request(stack.url)
      .get('/metrics')
      .set('Authorization', `Bearer ${stack.env.ADMIN_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      /wcs_http_requests_total\{method="POST",route="\/v1\/scrape",status="200"\} \d+/,
    );
    expect(res.text).toMatch(/wcs_queue_jobs\{queue="scrape-batch",state="waiting"\} \d+/);
    expect(res.text).not.toMatch(/route="\/v1\/batch\/scrape\/[0-9a-f]{8}/);
  });

  it('Bull Board needs ADMIN_TOKEN', async () => {
    expect((await request(stack.url).get('/admin/queues')).status).toBe(401);
    expect(
      (await request(stack.url).get('/admin/queues').set('Authorization', 'Bearer wrong-token-xxxxxxxx'))
        .status,
    ).toBe(401);
    const ok = await request(stack.url)
      .get('/admin/queues')
      .set('Authorization', `Bearer ${stack.env.ADMIN_TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('<');
  });
});
