/**
 * The `changeTracking` format's `json` mode end to end: gateway + scrape worker, the page_history
 * table, a local site whose page the test rewrites, and the fake Anthropic server as the extract
 * model. The values before and after come from the model; priced like an extract on top of the
 * page (1 + 5), refunded with the page when the model fails; refused clearly where it cannot run.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeLlmServer, startFakeAnthropic, textSeenByModel } from '@wcs/testing';
import request from 'supertest';
import { ledgerOf, startCrawl, waitForCrawl } from './crawl-helpers';
import { balanceOf, createTestAccount, pollUntil, type Stack, startStack, type TestAccount } from './harness';

/** Path → price shown on the page; the page's ETag follows its content. */
const prices = new Map<string, number>();
let server: Server;
let base: string;
let fake: FakeLlmServer;
let stack: Stack;
let account: TestAccount;

const page = (price: number) => `<!doctype html><html><head><title>Lamp</title></head><body><main>
<h1>Reading lamp</h1>
<p>A brass reading lamp with a linen shade, made in a small workshop by the river.</p>
<p>Price: ${price} euros. Shipping takes three days and returns are free for a month.</p>
</main></body></html>`;

/** The model reads the price off the text it was given (the prompt and the page's markdown). */
function priceModel(): void {
  fake.script((req) => {
    const m = /Price: (\d+) euros/.exec(textSeenByModel(req));
    return { data: { price: m ? Number(m[1]) : null } };
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const price = prices.get(path);
    if (price === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
      return;
    }
    const etag = `"p-${price}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(page(price));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake = await startFakeAnthropic();
  stack = await startStack({
    crawlWorker: true,
    env: {
      BROWSER_ENABLED: 'false',
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ANTHROPIC_BASE_URL: fake.url,
      EXTRACT_MODEL: 'claude-fake',
      EXTRACT_MODEL_MAX_RETRIES: '0',
    },
  });
});
afterAll(async () => {
  await stack?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await fake?.close();
});
beforeEach(async () => {
  account = await createTestAccount({ plan: 'hobby', credits: 100 });
  fake.requests.length = 0;
  priceModel();
});

const SCHEMA = { price: 'number' };
const tracked = (url: string, options: Record<string, unknown> = { modes: ['json'], schema: SCHEMA }) =>
  request(stack.url)
    .post('/v1/scrape')
    .set(account.auth)
    .send({ url, formats: ['markdown', 'changeTracking'], changeTrackingOptions: options });

describe('the json mode of changeTracking', () => {
  it('new, same (a 304: one model call), changed (both copies asked): the values before and after, 6 credits each', async () => {
    const path = `/lamp/${randomUUID()}`;
    prices.set(path, 40);
    const first = await tracked(base + path);
    expect(first.status).toBe(200);
    expect(first.body.data.changeTracking).toMatchObject({
      changeStatus: 'new',
      json: { previous: null, current: { price: 40 } },
    });
    expect(fake.requests).toHaveLength(1);
    expect(textSeenByModel(fake.requests[0]!)).toContain('Price: 40 euros');

    const same = await tracked(base + path);
    expect(same.status).toBe(200);
    expect(same.body.data.changeTracking).toMatchObject({
      changeStatus: 'same',
      json: { previous: { price: 40 }, current: { price: 40 } },
    });
    // The same content: one model call gives both sides.
    expect(fake.requests).toHaveLength(2);

    prices.set(path, 35);
    const changed = await tracked(base + path, { modes: ['json', 'git-diff'], schema: SCHEMA });
    expect(changed.status).toBe(200);
    expect(changed.body.data.changeTracking).toMatchObject({
      changeStatus: 'changed',
      json: { previous: { price: 40 }, current: { price: 35 } },
    });
    expect(changed.body.data.changeTracking.diff.text).toContain('+Price: 35 euros');
    expect(fake.requests).toHaveLength(4);
    const seen = fake.requests.slice(2).map((r) => textSeenByModel(r));
    expect(seen.some((t) => t.includes('Price: 40 euros'))).toBe(true);
    expect(seen.some((t) => t.includes('Price: 35 euros'))).toBe(true);

    expect(await balanceOf(account.accountId)).toBe(100 - 3 * 6);
    const rows = (await ledgerOf(account.accountId)).filter((r) => r.reason.startsWith('scrape'));
    expect(rows.map((r) => [r.reason, r.amount])).toEqual([
      ['scrape', -6],
      ['scrape', -6],
      ['scrape', -6],
    ]);
  });

  it('a prompt alone, and a JSON Schema through /firecrawl/v2/scrape (the SDK shape)', async () => {
    const path = `/lamp/${randomUUID()}`;
    prices.set(path, 12);
    const prompted = await tracked(base + path, {
      modes: ['json'],
      prompt: 'The price in euros, as `price`.',
    });
    expect(prompted.status).toBe(200);
    expect(prompted.body.data.changeTracking.json).toEqual({ previous: null, current: { price: 12 } });
    expect(textSeenByModel(fake.requests[0]!)).toContain('The price in euros');

    prices.set(path, 13);
    const v2 = await request(stack.url)
      .post('/firecrawl/v2/scrape')
      .set(account.auth)
      .send({
        url: base + path,
        formats: [
          'markdown',
          {
            type: 'changeTracking',
            modes: ['json'],
            schema: { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] },
          },
        ],
      });
    expect(v2.status).toBe(200);
    expect(v2.body.data.changeTracking).toMatchObject({
      changeStatus: 'changed',
      json: { previous: { price: 12 }, current: { price: 13 } },
    });
  });

  it('batch items and crawled pages carry the values too, 6 credits a page', async () => {
    const path = `/lamp/${randomUUID()}`;
    prices.set(path, 21);
    const json = { modes: ['json'], schema: SCHEMA };
    const start = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [base + path], formats: ['markdown', 'changeTracking'], changeTrackingOptions: json });
    expect(start.status).toBe(202);
    const batch = await pollUntil(async () => {
      const res = await request(stack.url).get(`/v1/batch/scrape/${start.body.id}`).set(account.auth);
      return res.body.status === 'done' ? res.body : undefined;
    }, 60_000);
    expect(batch.results[0].data.changeTracking.json).toEqual({ previous: null, current: { price: 21 } });

    prices.set(path, 22);
    const id = await startCrawl(stack.url, account.auth, {
      url: base + path,
      maxDepth: 0,
      sitemap: 'skip',
      scrapeOptions: { formats: ['markdown', 'changeTracking'], changeTrackingOptions: json },
    });
    const crawl = await waitForCrawl(stack.url, id, account.auth);
    expect(crawl.pages).toHaveLength(1);
    expect(crawl.pages[0]?.changeTracking).toMatchObject({
      changeStatus: 'changed',
      json: { previous: { price: 21 }, current: { price: 22 } },
    });
    await pollUntil(
      async () => ((await balanceOf(account.accountId)) === 100 - 12 ? true : undefined),
      30_000,
    );
  });

  it('a model that fails fails the page: refunded whole, the history unchanged', async () => {
    const path = `/lamp/${randomUUID()}`;
    prices.set(path, 70);
    expect((await tracked(base + path)).status).toBe(200);
    prices.set(path, 75);
    fake.script(() => ({ status: 500 }));
    const failed = await tracked(base + path);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await balanceOf(account.accountId)).toBe(100 - 6);
    // The failed visit did not become the stored copy: the next one still compares with 70.
    priceModel();
    const again = await tracked(base + path);
    expect(again.body.data.changeTracking).toMatchObject({
      changeStatus: 'changed',
      json: { previous: { price: 70 }, current: { price: 75 } },
    });
  });

  it('refusals: no schema or prompt, a schema the model cannot take, json on search — 400s naming the field', async () => {
    const url = `${base}/lamp/none`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ modes: ['json'] }, 'changeTrackingOptions.modes'],
      [{ modes: ['json'], schema: { price: 'money' } }, 'changeTrackingOptions.schema'],
      [
        { modes: ['json'], schema: { type: 'object', properties: { a: { type: 'null' } } } },
        'changeTrackingOptions.schema',
      ],
      [{ modes: ['git-diff'], prompt: 'x' }, 'changeTrackingOptions.prompt'],
    ];
    for (const [options, field] of cases) {
      const res = await tracked(url, options);
      expect({ status: res.status, options }).toEqual({ status: 400, options });
      expect(res.body.error).toContain(field);
    }
    const search = await request(stack.url)
      .post('/v1/search')
      .set(account.auth)
      .send({
        query: 'lamp',
        changeTracking: true,
        changeTrackingOptions: { modes: ['json'], schema: SCHEMA },
      });
    expect(search.status).toBe(400);
    expect(search.body.error).toContain('changeTrackingOptions.modes');
    expect(fake.requests).toHaveLength(0);
    expect(await balanceOf(account.accountId)).toBe(100);
  });
});
