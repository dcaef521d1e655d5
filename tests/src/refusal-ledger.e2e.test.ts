/**
 * A charged request (scrape, map, extract — native and Firecrawl-compatible) whose target is
 * refused with a 400 did no work, so it writes no ledger rows: the gateway resolves and checks the
 * target before it reserves anything. The workers still check every hop themselves (DNS
 * rebinding); this is the early refusal.
 */
import { createDb, type Db } from '@wcs/db';
import { type FakeLlmServer, type FixtureSite, startFakeAnthropic, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import { createTestAccount, type Stack, startStack, TEST_DATABASE_URL, type TestAccount } from './harness';

let strict: Stack;
let open: Stack;
let site: FixtureSite;
let model: FakeLlmServer;
let db: Db;

beforeAll(async () => {
  [site, model] = await Promise.all([startFixtureSite({ pages: 1 }), startFakeAnthropic()]);
  // Workers (and a model) present, so a refusal that reached them would be charged and refunded.
  const workers = { mapWorker: true, extractWorker: true } as const;
  const env = {
    BROWSER_ENABLED: 'false',
    RATE_LIMIT_FREE: '100000',
    ANTHROPIC_API_KEY: 'sk-ant-refusals',
    ANTHROPIC_BASE_URL: model.url,
    EXTRACT_MODEL: 'claude-fake',
  };
  strict = await startStack({ ...workers, env: { ...env, ALLOW_PRIVATE_TARGETS: 'false' } });
  open = await startStack({ ...workers, env });
  db = createDb(TEST_DATABASE_URL);
}, 60_000);
afterAll(async () => {
  await db?.close();
  await strict?.close();
  await open?.close();
  await site?.close();
  await model?.close();
});

const ledgerRows = (accountId: string) => db.prisma.creditLedger.count({ where: { accountId } });

/** Every charged entry point that takes a target URL, as [name, path, body]. */
function entryPoints(url: string): Array<[string, string, Record<string, unknown>]> {
  return [
    ['scrape', '/v1/scrape', { url, engine: 'fetch' }],
    ['map', '/v1/map', { url }],
    ['extract', '/v1/extract', { url, prompt: 'the title' }],
    ['firecrawl v2 scrape', '/firecrawl/v2/scrape', { url }],
    ['firecrawl v1 scrape', '/firecrawl/v1/scrape', { url }],
    ['firecrawl v2 map', '/firecrawl/v2/map', { url }],
    ['firecrawl v1 map', '/firecrawl/v1/map', { url }],
  ];
}

async function refusals(
  stack: Stack,
  account: TestAccount,
  cases: Array<[string, string]>,
): Promise<string[]> {
  const got: string[] = [];
  for (const [url, code] of cases) {
    for (const [name, path, body] of entryPoints(url)) {
      const res = await request(stack.url).post(path).set(account.auth).send(body);
      got.push(
        `${name} ${url}: ${res.status} ${res.body.code}${res.status === 400 && res.body.code === code ? '' : ` (want 400 ${code})`}`,
      );
    }
  }
  return got.filter((line) => line.includes('want'));
}

describe('refused targets write no ledger rows', () => {
  it('ALLOW_PRIVATE_TARGETS=false: unknown host, other schemes, private addresses and names', async () => {
    const account = await createTestAccount({ credits: 100 });
    const before = await ledgerRows(account.accountId);
    const visits = site.accessLog.length;
    const mismatches = await refusals(strict, account, [
      ['http://nonexistent.invalid/', 'DNS_RESOLUTION_FAILED'],
      ['ftp://example.com/file', 'INVALID_URL'],
      ['http://10.0.0.1/', 'TARGET_FORBIDDEN'],
      ['http://169.254.169.254/latest/meta-data/', 'TARGET_FORBIDDEN'],
      [`${site.url}/`, 'TARGET_FORBIDDEN'],
      // A name, so only a DNS lookup can tell it is private.
      [`http://localhost:${site.port}/`, 'TARGET_FORBIDDEN'],
    ]);
    expect(mismatches).toEqual([]);
    expect(await ledgerRows(account.accountId)).toBe(before);
    const page = await request(strict.url).get('/v1/ledger').set(account.auth).expect(200);
    expect(page.body.total).toBe(before);
    expect(site.accessLog.slice(visits)).toEqual([]);
  }, 120_000);

  it('ALLOW_PRIVATE_TARGETS=true: an unknown host is still refused before the charge', async () => {
    const account = await createTestAccount({ credits: 100 });
    const before = await ledgerRows(account.accountId);
    const mismatches = await refusals(open, account, [
      ['http://nonexistent.invalid/', 'DNS_RESOLUTION_FAILED'],
      ['nonexistent.invalid/path', 'DNS_RESOLUTION_FAILED'],
    ]);
    expect(mismatches).toEqual([]);
    expect(await ledgerRows(account.accountId)).toBe(before);

    // A private target is allowed here, and a scrape that does work is still charged (one row).
    const ok = await request(open.url)
      .post('/v1/scrape')
      .set(account.auth)
      .send({ url: `http://localhost:${site.port}/`, engine: 'fetch' });
    expect(ok.status).toBe(200);
    expect(await ledgerRows(account.accountId)).toBe(before + 1);
  }, 120_000);

  it('crawl and batch: a refused start URL or item URL is a 400 without rows', async () => {
    const account = await createTestAccount({ credits: 100 });
    const before = await ledgerRows(account.accountId);
    for (const [path, body, code] of [
      ['/v1/crawl', { url: 'http://10.0.0.1/' }, 'TARGET_FORBIDDEN'],
      ['/v1/crawl', { url: 'http://nonexistent.invalid/' }, 'DNS_RESOLUTION_FAILED'],
      ['/v1/batch/scrape', { urls: ['ftp://example.com/a'] }, 'INVALID_URL'],
      ['/firecrawl/v2/crawl', { url: 'http://10.0.0.1/' }, 'TARGET_FORBIDDEN'],
      // The batch is charged up front: a refused webhook receiver must stop it before that.
      [
        '/v1/batch/scrape',
        { urls: ['http://93.184.215.14/'], webhook: 'http://10.0.0.1/hook' },
        'TARGET_FORBIDDEN',
      ],
    ] as const) {
      const res = await request(strict.url).post(path).set(account.auth).send(body);
      expect([path, res.status, res.body.code]).toEqual([path, 400, code]);
    }
    expect(await ledgerRows(account.accountId)).toBe(before);
  });
});
