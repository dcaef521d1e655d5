import { type FixtureSite, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack, type TestAccount } from './harness';

let stack: Stack;
let site: FixtureSite;
let account: TestAccount;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 10 });
  stack = await startStack();
  account = await createTestAccount({ plan: 'hobby' });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

type Poll = request.Response['body'];

async function waitDone(id: string, auth = account.auth): Promise<Poll> {
  return pollUntil(async () => {
    const res = await request(stack.url).get(`/v1/batch/scrape/${id}`).set(auth);
    return res.body.status === 'done' ? res.body : undefined;
  }, 60_000);
}

describe('POST /v1/batch/scrape', () => {
  it('202 at once with id and total; items finish with data; 1 credit per URL', async () => {
    const before = await balanceOf(account.accountId);
    const urls = [0, 1, 2, 3].map((n) => `${site.url}/article/${n}`);
    const start = await request(stack.url).post('/v1/batch/scrape').set(account.auth).send({ urls });
    expect(start.status).toBe(202);
    expect(start.body).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/), total: 4 });
    // Deducted up front, before any item ran.
    expect(await balanceOf(account.accountId)).toBe(before - 4);

    const first = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
    expect(['pending', 'processing', 'done']).toContain(first.body.status);

    const done = await waitDone(start.body.id);
    expect(done).toMatchObject({
      success: true,
      status: 'done',
      total: 4,
      completed: 4,
      failed: 0,
      creditsUsed: 4,
    });
    expect(done.results).toHaveLength(4);
    expect(done.results.map((r: { url: string }) => r.url)).toEqual(urls);
    for (const r of done.results) {
      expect(r.status).toBe('done');
      expect(r).not.toHaveProperty('id');
      expect(r).not.toHaveProperty('error');
      expect(Object.keys(r.data).sort()).toEqual(['html', 'markdown', 'metadata', 'text']);
      expect(r.data.metadata.statusCode).toBe(200);
      expect(typeof r.data.metadata.title).toBe('string');
      expect(r.data.markdown.length).toBeGreaterThan(50);
    }
  });

  it('items win over urls; ids are echoed only when given; failed items carry an error and are refunded', async () => {
    const before = await balanceOf(account.accountId);
    const start = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({
        urls: [`${site.url}/article/9`],
        items: [
          { id: 'a', url: `${site.url}/article/1` },
          { url: `${site.url}/article/2` },
          { id: 'missing', url: `${site.url}/404` },
        ],
        format: 'json',
      });
    expect(start.status).toBe(202);
    expect(start.body.total).toBe(3);
    const done = await waitDone(start.body.id);
    expect(done).toMatchObject({ status: 'done', total: 3, completed: 2, failed: 1, creditsUsed: 2 });
    const [a, b, c] = done.results;
    expect(a).toMatchObject({ id: 'a', status: 'done' });
    expect(a.data.json).toBeDefined();
    expect(b).not.toHaveProperty('id');
    expect(b.status).toBe('done');
    expect(c).toMatchObject({ id: 'missing', status: 'failed' });
    expect(c.error).toMatch(/404/);
    expect(c).not.toHaveProperty('data');
    expect(await balanceOf(account.accountId)).toBe(before - 2);
  });

  it('400 for missing urls/items, more than 500, an invalid or bare-domain URL, invalid JSON', async () => {
    const post = (body: unknown) =>
      request(stack.url)
        .post('/v1/batch/scrape')
        .set(account.auth)
        .send(body as object);
    const none = await post({ format: 'markdown' });
    expect(none.status).toBe(400);
    const tooMany = await post({ urls: Array.from({ length: 501 }, (_, i) => `${site.url}/article/${i}`) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/500/);
    const invalid = await post({ urls: [`${site.url}/article/1`, 'not a url'] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toContain('urls.1');
    // No https:// prefix for batch: a bare domain is an invalid URL here.
    const bare = await post({ urls: ['example.com'] });
    expect(bare.status).toBe(400);
    const badItem = await post({ items: [{ id: 1, url: `${site.url}/` }] });
    expect(badItem.status).toBe(400);
    expect(badItem.body.error).toContain('items.0.id');
    const json = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .set('Content-Type', 'application/json')
      .send('{"urls": [}');
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('INVALID_JSON');
  });

  it('accepts exactly 500 URLs', async () => {
    const big = await createTestAccount({ credits: 500 });
    const urls = Array.from({ length: 500 }, (_, i) => `${site.url}/article/${i % 10}?i=${i}`);
    const res = await request(stack.url).post('/v1/batch/scrape').set(big.auth).send({ urls });
    expect(res.status).toBe(202);
    expect(res.body.total).toBe(500);
    expect(await balanceOf(big.accountId)).toBe(0);
  });

  it('402 when the whole batch cannot be paid; nothing is charged', async () => {
    const poor = await createTestAccount({ credits: 2 });
    const res = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(poor.auth)
      .send({ urls: [1, 2, 3].map((n) => `${site.url}/article/${n}`) });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('INSUFFICIENT_CREDITS');
    expect(await balanceOf(poor.accountId)).toBe(2);
  });

  it('404 for an unknown id and for another account’s batch, 401 without a key', async () => {
    const start = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [`${site.url}/article/3`] });
    const other = await createTestAccount({ credits: 1 });
    const foreign = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(other.auth);
    const unknown = await request(stack.url)
      .get('/v1/batch/scrape/0b6f7a4e-4a4b-4c7e-9d54-7c8f2f0a1b2c')
      .set(account.auth);
    const garbage = await request(stack.url).get('/v1/batch/scrape/not-an-id').set(account.auth);
    for (const r of [foreign, unknown, garbage]) {
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ success: false, error: 'Batch not found', code: 'NOT_FOUND' });
    }
    expect((await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`)).status).toBe(401);
  });
});
