/**
 * Screenshot URLs are capability URLs: a scrape's `data.screenshot` is served to whoever holds it,
 * without the API key (an `<img>`, a chat message, a vision model), until the screenshot expires;
 * a tampered, expired or other deployment's URL is the 404 of an unknown one. Their origin is the
 * one the caller used (PUBLIC_URL unset), X-Forwarded-* counting only from proxies TRUST_PROXY names.
 * Gateway + scrape worker in this process, real Chromium, PostgreSQL and Redis.
 */
import { Writable } from 'node:stream';
import { createDb, type Db, ScreenshotsRepository } from '@wcs/db';
import { loadGatewayEnv, type RunningGateway, startGateway } from '@wcs/gateway';
import { createLogger } from '@wcs/logger';
import { type PageOptionsSite, startPageOptionsSite } from '@wcs/testing';
import request from 'supertest';
import {
  createTestAccount,
  pollUntil,
  type Stack,
  startStack,
  TEST_DATABASE_URL,
  type TestAccount,
} from './harness';

let stack: Stack;
let site: PageOptionsSite;
let account: TestAccount;
let db: Db;
/** A second gateway of the same deployment that trusts no proxy, logging to `logLines`. */
let plain: RunningGateway;
let plainUrl: string;
const logLines: string[] = [];

const TOKEN_URL_RE = /^(https?:\/\/[^/]+)\/v1\/screenshots\/([A-Za-z0-9_-]{74})\.png$/;
const NOT_FOUND = {
  success: false,
  code: 'NOT_FOUND',
  error: 'Screenshot not found (unknown, expired or not yours)',
};

beforeAll(async () => {
  site = await startPageOptionsSite();
  // The gateway trusts the loopback proxy in front of it; PUBLIC_URL stays unset.
  stack = await startStack({ env: { TRUST_PROXY: 'loopback' } });
  account = await createTestAccount({ credits: 100 });
  db = createDb(TEST_DATABASE_URL);
  const { PUBLIC_URL: _workersUrl, TRUST_PROXY: _trusted, ...env } = stack.env;
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  plain = await startGateway(
    loadGatewayEnv({ ...env, PORT: '0', LOG_LEVEL: 'info' }),
    createLogger({ service: 'gateway', level: 'info' }, sink),
  );
  plainUrl = `http://127.0.0.1:${plain.port}`;
});
afterAll(async () => {
  await plain?.close();
  await stack?.close();
  await site?.close();
  await db?.close();
});

/** A fresh screenshot of the fixture page: its URL and its token. */
async function takeScreenshot(): Promise<{ url: string; token: string }> {
  const res = await request(stack.url)
    .post('/v1/scrape')
    .set(account.auth)
    .send({ url: `${site.url}/tagged`, formats: ['screenshot'] });
  expect(res.status).toBe(200);
  const url = res.body.data.screenshot as string;
  const m = TOKEN_URL_RE.exec(url);
  expect(m).not.toBeNull();
  return { url, token: m?.[2] ?? '' };
}

/** The screenshot id inside a token (bytes 1..17; the MAC makes it unforgeable, not secret). */
function idOf(token: string): string {
  const hex = Buffer.from(token, 'base64url').subarray(1, 17).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body };
}

async function expectNotFound(url: string) {
  const res = await get(url);
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(JSON.parse(res.body.toString('utf8'))).toEqual(NOT_FOUND);
}

/** A token with one character changed (to another valid base64url character). */
function tamper(token: string, at: number): string {
  const c = token[at] === 'A' ? 'B' : 'A';
  return `${token.slice(0, at)}${c}${token.slice(at + 1)}`;
}

describe('capability URLs', () => {
  it('the URL of a scrape is served without a key: 200 image/png with its safety and cache headers', async () => {
    const { url } = await takeScreenshot();
    expect(url.startsWith(`${stack.url}/v1/screenshots/`)).toBe(true);
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.body.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(res.body.readUInt32BE(16)).toBe(1280);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(24 * 3600);
    // Any key, or none, at any gateway of the deployment: the URL is the credential.
    const other = await createTestAccount();
    expect((await get(url, other.auth)).status).toBe(200);
    expect((await get(url.replace(stack.url, plainUrl))).status).toBe(200);
  });

  it('a tampered token is the 404 of an unknown screenshot; the id route still needs the owner’s key', async () => {
    const { url, token } = await takeScreenshot();
    const base = url.slice(0, url.length - token.length - 4);
    // In the id, in the expiry, in the MAC.
    for (const at of [5, 20, 60]) await expectNotFound(`${base}${tamper(token, at)}.png`);
    await expectNotFound(`${base}${token.slice(0, -1)}.png`);
    // The id alone (URLs of documents stored before capability URLs): under the owner's key only.
    const byId = `${stack.url}/v1/screenshots/${idOf(token)}.png`;
    expect((await get(byId, account.auth)).status).toBe(200);
    expect((await get(byId)).status).toBe(401);
  });

  it('a token signed with another deployment’s secret is a 404', async () => {
    const { token } = await takeScreenshot();
    const id = idOf(token);
    const row = await db.prisma.screenshot.findUniqueOrThrow({ where: { id } });
    const elsewhere = new ScreenshotsRepository(db, {
      publicUrl: stack.url,
      ttlMs: 3_600_000,
      storage: 'postgres',
      urlSecret: 'another deployment, another secret 0123456789',
    });
    await expectNotFound(await elsewhere.urlOf(id, row.expiresAt));
  });

  it('expired: a token whose expiry has passed, and a live token of a screenshot that expired, are 404', async () => {
    const { url, token } = await takeScreenshot();
    const id = idOf(token);
    // This deployment's key (the stored secret, as the stack's gateway and worker use it).
    const here = new ScreenshotsRepository(db, {
      publicUrl: stack.url,
      ttlMs: 3_600_000,
      storage: 'postgres',
    });
    expect((await get(await here.urlOf(id, new Date(Date.now() + 60_000)))).status).toBe(200);
    await expectNotFound(await here.urlOf(id, new Date(Date.now() - 1_000)));
    await db.prisma.screenshot.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await expectNotFound(url);
  });

  it('the token never reaches the access log', async () => {
    const { url, token } = await takeScreenshot();
    expect((await get(url.replace(stack.url, plainUrl))).status).toBe(200);
    await expectNotFound(`${plainUrl}/v1/screenshots/${tamper(token, 30)}.png`);
    await pollUntil(
      async () => (logLines.some((l) => l.includes('/v1/screenshots/[token].png')) ? true : undefined),
      5_000,
    );
    const all = logLines.join('');
    expect(all).not.toContain(token.slice(10, 40));
    expect(all).not.toContain(tamper(token, 30).slice(10, 40));
    expect(all).toContain('"url":"/v1/screenshots/[token].png"');
  });
});

describe('the URL’s origin', () => {
  let batchId: string;
  beforeAll(async () => {
    const start = await request(stack.url)
      .post('/v1/batch/scrape')
      .set(account.auth)
      .send({ urls: [`${site.url}/tagged`], formats: ['screenshot'] });
    expect(start.status).toBe(202);
    batchId = start.body.id;
    await pollUntil(async () => {
      const res = await request(stack.url).get(`/v1/batch/scrape/${batchId}`).set(account.auth);
      return res.body.status === 'done' ? true : undefined;
    }, 60_000);
  });

  const shotOf = async (base: string, headers: Record<string, string>) => {
    const res = await request(base).get(`/v1/batch/scrape/${batchId}`).set(account.auth).set(headers);
    expect(res.status).toBe(200);
    return res.body.results[0].data.screenshot as string;
  };

  it('behind a trusted proxy: X-Forwarded-Proto and -Host name the origin, and the URL works there', async () => {
    const url = await shotOf(stack.url, {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'shots.example.test',
    });
    const m = TOKEN_URL_RE.exec(url);
    expect(m?.[1]).toBe('https://shots.example.test');
    // What the proxy would forward it to.
    expect((await get(`${stack.url}/v1/screenshots/${m?.[2]}.png`)).status).toBe(200);
  });

  it('a proxy passing the Host header through: that host', async () => {
    const url = await shotOf(stack.url, { Host: 'scrape.example.test:8443' });
    expect(TOKEN_URL_RE.exec(url)?.[1]).toBe('http://scrape.example.test:8443');
  });

  it('without TRUST_PROXY, X-Forwarded-* are ignored: the Host the gateway was reached at', async () => {
    const url = await shotOf(plainUrl, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' });
    expect(TOKEN_URL_RE.exec(url)?.[1]).toBe(plainUrl);
  });
});
