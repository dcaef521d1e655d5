import { CreditsRepository, createDb, type Db, DocumentsRepository } from '@wcs/db';
import {
  type FixtureSite,
  fixtureArticle,
  type SearxngFixture,
  startFixtureSite,
  startSearxngFixture,
} from '@wcs/testing';
import request from 'supertest';
import {
  balanceOf,
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  TEST_DATABASE_URL,
  type TestAccount,
} from './harness';

let site: FixtureSite;
let searxng: SearxngFixture;
/** Gateway with SEARCH_PROVIDER=searxng + the scrape worker. */
let web: Stack;
/** Gateway with the default embedded provider, sharing web's queues and worker. */
let embedded: Stack;
let db: Db;

const firstSentence = (n: number) => (fixtureArticle(n).paragraphs[0] ?? '').split('. ')[0] ?? '';

beforeAll(async () => {
  site = await startFixtureSite({ pages: 8 });
  searxng = await startSearxngFixture();
  web = await startStack({
    env: { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: searxng.url, FETCH_TIMEOUT_MS: '5000' },
  });
  embedded = await startStack({ env: { QUEUE_PREFIX: web.env.QUEUE_PREFIX ?? '' }, worker: false });
  db = createDb(TEST_DATABASE_URL, { poolSize: 2 });
});
afterAll(async () => {
  await embedded?.close();
  await web?.close();
  await searxng?.close();
  await site?.close();
  await db?.close();
});

const search = (stack: Stack, account: TestAccount, body: unknown) =>
  request(stack.url)
    .post('/v1/search')
    .set(account.auth)
    .send(body as object);

/** The search rows of the account's ledger, oldest first. */
async function searchLedger(accountId: string) {
  const rows = await new CreditsRepository(db).ledger(accountId, 100);
  return rows
    .filter((r) => r.reason.startsWith('search'))
    .reverse()
    .map((r) => ({ reason: r.reason, amount: r.amount, reference: r.reference }));
}

describe('POST /v1/search with SearXNG', () => {
  beforeEach(() => {
    searxng.configure({
      results: [
        { url: `${site.url}/article/1`, title: 'One', content: 'first hit' },
        { url: `${site.url}/article/99`, title: 'Missing', content: 'a page that is gone' },
        { url: `${site.url}/article/2`, title: 'Two', content: 'second hit' },
        { url: `${site.url}/article/3`, title: 'Three', content: 'third hit' },
      ],
    });
    searxng.requests.length = 0;
  });

  it('scrapes every hit; a failed page is markdown: null + error; only pages returned are billed', async () => {
    const account = await createTestAccount({ credits: 100 });
    const res = await search(web, account, {
      query: 'tidal power',
      num_results: 4,
      lang: 'en',
      country: 'gb',
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const data = res.body.data as Array<Record<string, unknown>>;
    expect(data.map((r) => r.url)).toEqual([1, 99, 2, 3].map((n) => `${site.url}/article/${n}`));
    for (const [i, n] of [
      [0, 1],
      [2, 2],
      [3, 3],
    ] as const) {
      expect(data[i]?.markdown).toEqual(expect.stringContaining(firstSentence(n)));
      expect(data[i]).not.toHaveProperty('error');
    }
    expect(data[0]).toMatchObject({ title: 'One', description: 'first hit' });
    expect(data[1]).toMatchObject({ title: 'Missing', markdown: null, code: 'TARGET_HTTP_ERROR' });
    expect(data[1]?.error).toMatch(/404/);
    expect(res.body.creditsUsed).toBe(6);
    expect(searxng.requests[0]).toMatchObject({ q: 'tidal power', format: 'json', language: 'en-GB' });

    // 8 reserved, 2 back for the failed page: 3 pages × 2 credits.
    expect(await balanceOf(account.accountId)).toBe(94);
    const ledger = await searchLedger(account.accountId);
    expect(ledger).toEqual([
      { reason: 'search', amount: -8, reference: expect.any(String) },
      { reason: 'search_refund', amount: 2, reference: ledger[0]?.reference },
    ]);
  });

  it('scrape: false returns hits only; fewer hits than num_results are refunded', async () => {
    const account = await createTestAccount({ credits: 100 });
    const res = await search(web, account, { query: 'anything', num_results: 6, scrape: false });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(4);
    expect(res.body.data[0]).toEqual({
      url: `${site.url}/article/1`,
      title: 'One',
      description: 'first hit',
    });
    expect(await balanceOf(account.accountId)).toBe(100 - 8);
  });

  it('a page slower than the time budget fails alone with TIMEOUT; the call answers in time', async () => {
    searxng.configure({
      results: [
        { url: `${site.url}/article/4?delay=5000`, title: 'Slow' },
        { url: `${site.url}/article/5`, title: 'Fast' },
      ],
    });
    const account = await createTestAccount({ credits: 100 });
    // In time: the budget ended the slow hit (its TIMEOUT) and the call answered with the rest.
    const res = await search(web, account, { query: 'slow', num_results: 2, timeout: 3_000 });
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ title: 'Slow', markdown: null, code: 'TIMEOUT' });
    expect(res.body.data[1].markdown).toContain(firstSentence(5));
    expect(await balanceOf(account.accountId)).toBe(98);
  });

  it('a misconfigured SearXNG is a 502 naming SEARXNG_URL, and nothing is billed', async () => {
    searxng.configure({ jsonDisabled: true });
    const account = await createTestAccount({ credits: 100 });
    const res = await search(web, account, { query: 'tidal' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 'SEARCH_PROVIDER_FAILED' });
    expect(res.body.error).toContain(`SEARXNG_URL=${searxng.url}`);
    expect(await balanceOf(account.accountId)).toBe(100);
  });

  it('400 for invalid bodies, 402 when num_results × 2 credits are not there', async () => {
    const account = await createTestAccount({ credits: 3 });
    for (const [body, field] of [
      [{}, 'query'],
      [{ query: '   ' }, 'query'],
      [{ query: 'x'.repeat(501) }, 'query'],
      [{ query: 'a', num_results: 21 }, 'num_results'],
      [{ query: 'a', num_results: 0 }, 'num_results'],
      [{ query: 'a', country: 'usa' }, 'country'],
      [{ query: 'a', lang: 'english!' }, 'lang'],
      [{ query: 'a', scrape: 'yes' }, 'scrape'],
    ] as const) {
      const res = await search(web, account, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.error).toContain(field);
    }
    const poor = await search(web, account, { query: 'a', num_results: 2 });
    expect(poor.status).toBe(402);
    expect(poor.body.code).toBe('INSUFFICIENT_CREDITS');
    expect(await balanceOf(account.accountId)).toBe(3);
    expect(searxng.requests).toHaveLength(0);
  });
});

describe('POST /v1/search with the embedded index (default provider)', () => {
  it("finds pages the account scraped (scrape and batch), never another account's", async () => {
    const mine = await createTestAccount({ credits: 100 });
    const theirs = await createTestAccount({ credits: 100 });
    // Article 3 is about tidal energy, 4 about medieval cartography, 7 about coffee roasting.
    expect(
      (
        await request(web.url)
          .post('/v1/scrape')
          .set(mine.auth)
          .send({ url: `${site.url}/article/3` })
      ).status,
    ).toBe(200);
    expect(
      (
        await request(web.url)
          .post('/v1/scrape')
          .set(theirs.auth)
          .send({ url: `${site.url}/article/4` })
      ).status,
    ).toBe(200);
    const batch = await request(web.url)
      .post('/v1/batch/scrape')
      .set(mine.auth)
      .send({ urls: [`${site.url}/article/7`] });
    expect(batch.status).toBe(202);
    await pollUntil(async () => {
      const r = await request(web.url).get(`/v1/batch/scrape/${batch.body.id}`).set(mine.auth);
      return r.body.status === 'done' ? r.body : undefined;
    }, 20_000);
    // Index entries are written just behind the answer (README: Search).
    const documents = new DocumentsRepository(db);
    for (const [account, page] of [
      [mine, 3],
      [theirs, 4],
      [mine, 7],
    ] as const)
      await pollUntil(
        async () => (await documents.get(account.accountId, `${site.url}/article/${page}`)) ?? undefined,
        10_000,
      );

    const tidal = await search(embedded, mine, { query: 'tidal turbines', num_results: 3, lang: 'en' });
    expect(tidal.status).toBe(200);
    expect(tidal.body.data.map((r: { url: string }) => r.url)).toEqual([`${site.url}/article/3`]);
    expect(tidal.body.data[0].title).toBe(fixtureArticle(3).title);
    expect(tidal.body.data[0].markdown).toContain(firstSentence(3));
    expect(tidal.body.creditsUsed).toBe(2);
    // Served from the stored copy: offline-capable, the site is not asked again…
    expect(tidal.body.data[0].metadata.cachedAt).toEqual(expect.any(String));
    const hitsBefore = site.hits('/article/3');
    await search(embedded, mine, { query: 'tidal turbines', num_results: 1, lang: 'en' });
    expect(site.hits('/article/3')).toBe(hitsBefore);
    // …unless the caller asks for a fresh scrape.
    const fresh = await search(embedded, mine, {
      query: 'tidal turbines',
      num_results: 1,
      lang: 'en',
      fresh: true,
    });
    expect(fresh.body.data[0].markdown).toContain(firstSentence(3));
    expect(fresh.body.data[0].metadata.cachedAt).toBeUndefined();
    expect(site.hits('/article/3')).toBe(hitsBefore + 1);

    const coffee = await search(embedded, mine, { query: 'roast curve', scrape: false });
    expect(coffee.body.data.map((r: { url: string }) => r.url)).toEqual([`${site.url}/article/7`]);

    // The other account's page is invisible to me, and mine to them.
    const other = await search(embedded, mine, { query: 'portolan cartography' });
    expect(other.status).toBe(200);
    expect(other.body.data).toEqual([]);
    expect(other.body.creditsUsed).toBe(0);
    const theirView = await search(embedded, theirs, { query: 'portolan cartography', scrape: false });
    expect(theirView.body.data.map((r: { url: string }) => r.url)).toEqual([`${site.url}/article/4`]);
    expect((await search(embedded, theirs, { query: 'tidal turbines', scrape: false })).body.data).toEqual(
      [],
    );

    // 100 − 1 (scrape) − 1 (batch) − 3 × 2 (tidal: stored, stored, fresh) − 2 (coffee) − 0 (nothing found).
    expect(await balanceOf(mine.accountId)).toBe(90);
  });
});
