/**
 * Text that cannot be stored is refused where it enters: a NUL character in any body string (at
 * any depth, native and Firecrawl routes), in a path segment or a query parameter, and a body that
 * is not well-formed UTF-8 are 400 `VALIDATION_FAILED` naming where, never a 500 from PostgreSQL
 * or a silently replaced character. Also: `location.country` must be an assigned ISO 3166-1 code.
 */
import request from 'supertest';
import { createTestAccount, type Stack, startStack, type TestAccount } from './harness';

let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  // No workers: every case is decided by the gateway; a valid crawl is only queued.
  stack = await startStack({ worker: false });
  account = await createTestAccount({ credits: 1_000 });
});
afterAll(async () => {
  await stack.close();
});

const TARGET = 'http://127.0.0.1:9/';

async function post(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { ...account.auth, 'content-type': 'application/json', ...headers },
    body,
  });
  return {
    status: res.status,
    body: (await res.json()) as { code: string; error: string; details?: unknown },
  };
}

async function get(path: string) {
  const res = await fetch(`${stack.url}${path}`, { headers: account.auth });
  return {
    status: res.status,
    body: (await res.json()) as { code: string; error: string; details?: unknown },
  };
}

describe('a NUL character is refused at the boundary, naming the field', () => {
  const cases: Array<[string, unknown, string]> = [
    ['/v1/keys', { name: 'laptop\u0000' }, 'name'],
    [
      '/v1/batch/scrape',
      {
        items: [
          { id: 'ok', url: TARGET },
          { id: 'b\u0000', url: TARGET },
        ],
      },
      'items.1.id',
    ],
    ['/v1/crawl', { url: TARGET, includePaths: ['/docs/\u0000'] }, 'includePaths.0'],
    ['/v1/crawl', { url: TARGET, excludePaths: ['^/a', '\u0000'] }, 'excludePaths.1'],
    ['/firecrawl/v2/crawl', { url: TARGET, includePaths: ['/docs/\u0000'] }, 'includePaths.0'],
    ['/firecrawl/v2/crawl', { url: TARGET, excludePaths: ['\u0000x'] }, 'excludePaths.0'],
    ['/firecrawl/v1/crawl', { url: TARGET, includePaths: ['\u0000'] }, 'includePaths.0'],
    ['/firecrawl/v2/batch/scrape', { urls: [TARGET, `${TARGET}\u0000`] }, 'urls.1'],
    ['/v1/scrape', { url: TARGET, headers: { 'X-A': 'v\u0000' } }, 'headers.X-A'],
    // In a key, deep inside free-form JSON.
    ['/v1/extract', { url: TARGET, schema: { a: { 'b\u0000': 'string' } } }, 'schema.a.b\ufffd'],
  ];

  it.each(cases)('POST %s (%#)', async (path, body, field) => {
    const res = await post(path, JSON.stringify(body));
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.body.error).toBe(`${field}: contains a NUL character (\\u0000), which text cannot hold`);
    expect(res.body.details).toEqual({ field });
  });

  it('nothing was created or charged by the refused requests', async () => {
    const keys = await get('/v1/keys');
    expect(
      (keys.body as unknown as { data: Array<{ name: string | null }> }).data.map((k) => k.name),
    ).toEqual([null]);
    const me = await get('/v1/account');
    expect((me.body as unknown as { data: { balance: number } }).data.balance).toBe(1_000);
  });

  it('in a path segment or a query parameter (native and Firecrawl)', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const path of [
      `/v1/batch/scrape/${id}/results/a%00b`,
      '/v1/crawl/%00',
      `/v1/crawl/${id}/results/x%00`,
      '/v1/monitor/%00',
      '/firecrawl/v2/crawl/%00',
      '/firecrawl/v2/batch/scrape/a%00',
      '/firecrawl/v2/extract/a%00',
    ]) {
      const res = await get(path);
      expect([path, res.status, res.body.code, res.body.error]).toEqual([
        path,
        400,
        'VALIDATION_FAILED',
        'path: contains a NUL character (\\u0000), which text cannot hold',
      ]);
    }
    for (const [path, field] of [
      ['/v1/ledger?reason=a%00', 'reason'],
      ['/v1/crawl?limit=1%00', 'limit'],
      [`/v1/crawl/${id}?skip=%00`, 'skip'],
      ['/v1/monitor?status=%00', 'status'],
      ['/firecrawl/v2/crawl/x?next=%00', 'next'],
    ] as const) {
      const res = await get(path);
      expect([path, res.status, res.body.code, res.body.error]).toEqual([
        path,
        400,
        'VALIDATION_FAILED',
        `${field}: contains a NUL character (\\u0000), which text cannot hold`,
      ]);
    }
    // "%2500" is the text "%00", not a NUL: an ordinary unknown id.
    expect((await get('/v1/crawl/%2500')).status).toBe(404);
    // Escapes that decode to no UTF-8 (U+FFFD unseen, before): the body's rule.
    for (const [path, offset] of [
      ['/v1/ledger?reason=%FF', 7],
      ['/firecrawl/v2/crawl/x?next=%C3', 5],
    ] as const) {
      const res = await get(path);
      expect([path, res.status, res.body.code, res.body.details]).toEqual([
        path,
        400,
        'VALIDATION_FAILED',
        { field: 'query', offset },
      ]);
      expect(res.body.error).toMatch(/^query: not valid UTF-8 once percent-decoded/);
    }
  });

  it('on the dashboard sign-in too', async () => {
    const res = await request(stack.url)
      .post('/dashboard/api/session')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ apiKey: 'wcs_\u0000' }));
    expect([res.status, res.body.error]).toEqual([
      400,
      'apiKey: contains a NUL character (\\u0000), which text cannot hold',
    ]);
  });
});

describe('a body that is not well-formed UTF-8 is refused, like an escaped lone surrogate', () => {
  const raw = (json: string, bad: number[]) => {
    const [head, tail] = json.split('@') as [string, string];
    return Buffer.concat([Buffer.from(head), Buffer.from(bad), Buffer.from(tail)]);
  };

  it.each([
    ['/v1/scrape', `{"url":"${TARGET}x@y"}`, [0xff]],
    ['/v1/keys', '{"name":"x@y"}', [0xc3]],
    ['/firecrawl/v2/scrape', `{"url":"${TARGET}x@y"}`, [0xed, 0xa0, 0x80]], // a surrogate encoded as UTF-8 (CESU)
    ['/firecrawl/v1/crawl', `{"url":"${TARGET}x@y"}`, [0xe2, 0x82]], // a sequence cut short
  ])('POST %s with bytes %j', async (path, json, bad) => {
    const body = raw(json, bad);
    const offset = body.indexOf(Buffer.from(bad));
    const res = await post(path, body);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.body.error).toBe(
      `body: not valid UTF-8 (byte ${offset} starts no valid sequence); send well-formed text`,
    );
    expect(res.body.details).toEqual({ field: 'body', offset });
  });

  it('the escaped lone surrogate answers in the same style', async () => {
    const res = await post('/v1/keys', '{"name":"a\\ud800"}');
    expect([res.status, res.body.code, res.body.error]).toEqual([
      400,
      'VALIDATION_FAILED',
      'name: not valid Unicode (a lone UTF-16 surrogate such as \\ud800); send well-formed text',
    ]);
  });

  it('on the dashboard sign-in too; well-formed multi-byte text is unchanged', async () => {
    const res = await fetch(`${stack.url}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: raw('{"apiKey":"wcs_@"}', [0x80]),
    });
    const bad = (await res.json()) as { code: string; error: string };
    expect([res.status, bad.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(bad.error).toMatch(/^body: not valid UTF-8 \(byte 15 /);
    const created = await post('/v1/keys', Buffer.from(JSON.stringify({ name: 'Zürich 𝕏 ключ' })));
    expect(created.status).toBe(201);
    expect((created.body as unknown as { data: { name: string } }).data.name).toBe('Zürich 𝕏 ключ');
  });
});

describe('location.country is an assigned ISO 3166-1 alpha-2 code', () => {
  it.each([
    ['XX', 'XX is not an assigned ISO 3166-1 alpha-2 country code'],
    ['zz', 'ZZ is not an assigned ISO 3166-1 alpha-2 country code'],
    ['QM', 'QM is not an assigned ISO 3166-1 alpha-2 country code'],
    ['UK', 'UK is not an assigned ISO 3166-1 alpha-2 country code (did you mean "GB"?)'],
    ['EU', 'EU is not an assigned ISO 3166-1 alpha-2 country code'],
  ])('%s is refused (native and Firecrawl)', async (country, message) => {
    for (const path of ['/v1/scrape', '/firecrawl/v2/scrape']) {
      const res = await post(path, JSON.stringify({ url: TARGET, location: { country } }));
      expect([path, res.status, res.body.code, res.body.error]).toEqual([
        path,
        400,
        'VALIDATION_FAILED',
        `location.country: ${message}`,
      ]);
    }
    const search = await post('/v1/search', JSON.stringify({ query: 'q', country }));
    expect([search.status, search.body.error]).toEqual([400, `country: ${message}`]);
  });

  it('an assigned code in any case is accepted (a crawl is only queued here)', async () => {
    for (const country of ['de', 'GB', 'Bv', 'ss']) {
      const res = await post(
        '/v1/crawl',
        JSON.stringify({ url: TARGET, maxPages: 1, scrapeOptions: { location: { country } } }),
      );
      expect([country, res.status]).toEqual([country, 202]);
    }
  });
});
