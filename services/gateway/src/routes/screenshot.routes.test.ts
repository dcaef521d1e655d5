import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { rawEnv } from '@wcs/config';
import {
  AccountsRepository,
  ApiKeysRepository,
  createDb,
  type Db,
  ScreenshotsRepository,
  SessionsRepository,
} from '@wcs/db';
import { createLogger } from '@wcs/logger';
import express from 'express';
import { authMiddleware } from '../middleware/auth.middleware';
import { errorHandler, notFoundHandler } from '../middleware/error.middleware';
import { SESSION_COOKIE } from '../middleware/session-cookie';
import {
  redactScreenshotFile,
  redactScreenshotToken,
  screenshotCapabilityRoutes,
  screenshotRoutes,
} from './screenshot.routes';

/** A real 2×1 RGB PNG. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([head, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0, 0, 0, 255]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let db: Db;
let server: Server;
let base: string;
let screenshots: ScreenshotsRepository;
let accounts: AccountsRepository;
let keys: ApiKeysRepository;
let sessions: SessionsRepository;

/**
 * The route behind the gateway's real auth middleware and error handler (as app.ts mounts them),
 * against the real PostgreSQL: every answer here is what a client of the gateway gets.
 */
beforeAll(async () => {
  db = createDb(rawEnv('DATABASE_URL') ?? 'postgresql://postgres@127.0.0.1:5432/wcs_test');
  accounts = new AccountsRepository(db);
  keys = new ApiKeysRepository(db);
  sessions = new SessionsRepository(db);
  screenshots = new ScreenshotsRepository(db, {
    publicUrl: 'http://gateway.test',
    ttlMs: 24 * 3_600_000,
    storage: 'postgres',
  });
  const app = express();
  app.use(screenshotCapabilityRoutes({ screenshots }));
  app.use('/v1', authMiddleware({ apiKeys: keys, sessions }));
  app.use(screenshotRoutes({ screenshots }));
  app.use(notFoundHandler);
  app.use(errorHandler(createLogger({ service: 'test', level: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await db.close();
});

async function newCaller() {
  const { accountId } = await accounts.create({ plan: 'free' });
  const key = await keys.create(accountId);
  return { accountId, keyId: key.keyId, auth: { Authorization: `Bearer ${key.apiKey}` } };
}

const NOT_FOUND = {
  success: false,
  code: 'NOT_FOUND',
  error: 'Screenshot not found (unknown, expired or not yours)',
};

/** The path of a capability URL the store answered. */
function pathOf(url: string): string {
  expect(url).toMatch(/^http:\/\/gateway\.test\/v1\/screenshots\/[A-Za-z0-9_-]{74}\.png$/);
  return url.slice('http://gateway.test'.length);
}

describe('GET /v1/screenshots/:token.png (capability URLs)', () => {
  test('no key needed: the PNG with its safety, referrer and cache headers, with or without .png', async () => {
    const owner = await newCaller();
    const png = tinyPng();
    const { url } = await screenshots.save(owner.accountId, png);
    const path = pathOf(url);
    for (const p of [path, path.slice(0, -4)]) {
      const res = await fetch(`${base}${p}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
      const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
      expect(maxAge).toBeGreaterThan(24 * 3600 - 120);
      expect(maxAge).toBeLessThanOrEqual(24 * 3600);
      expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    }
    // A key, anyone's or a wrong one, changes nothing: the URL is the credential.
    const other = await newCaller();
    expect((await fetch(`${base}${path}`, { headers: other.auth })).status).toBe(200);
    expect((await fetch(`${base}${path}`, { headers: { Authorization: 'Bearer nope' } })).status).toBe(200);
  });

  test('forged, altered, expired, of another secret, of a purged screenshot: the 404 of an unknown id', async () => {
    const owner = await newCaller();
    const { id, url } = await screenshots.save(owner.accountId, tinyPng());
    const path = pathOf(url);
    const token = path.slice('/v1/screenshots/'.length, -4);
    const flip = (at: number) =>
      `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    const row = await db.prisma.screenshot.findUniqueOrThrow({ where: { id } });
    const elsewhere = new ScreenshotsRepository(db, {
      publicUrl: 'http://gateway.test',
      ttlMs: 3_600_000,
      storage: 'postgres',
      urlSecret: 'another deployment and its own secret!!',
    });
    const gone = await screenshots.save(owner.accountId, tinyPng());
    await db.prisma.screenshot.delete({ where: { id: gone.id } });
    const files = [
      `${flip(3)}.png`,
      `${flip(40)}.png`,
      `${flip(73)}.png`,
      `${'A'.repeat(74)}.png`,
      pathOf(await screenshots.urlOf(id, new Date(Date.now() - 1_000))).slice(16),
      pathOf(await elsewhere.urlOf(id, row.expiresAt)).slice(16),
      pathOf(gone.url).slice(16),
      `${token}.jpg`,
    ];
    for (const file of files) {
      const res = await fetch(`${base}/v1/screenshots/${file}`);
      expect({ file, status: res.status, body: await res.json() }).toEqual({
        file,
        status: 404,
        body: NOT_FOUND,
      });
    }
    // The genuine one still works.
    expect((await fetch(`${base}${path}`)).status).toBe(200);
  });

  test('tokens are cut out of logged paths and route parameters', () => {
    const token = 'a'.repeat(74);
    expect(redactScreenshotToken(`/v1/screenshots/${token}.png?x=1`)).toBe('/v1/screenshots/[token].png?x=1');
    expect(redactScreenshotFile(`${token}.png`)).toBe('[token].png');
    expect(redactScreenshotFile('00000000-0000-4000-8000-000000000000.png')).toBe(
      '00000000-0000-4000-8000-000000000000.png',
    );
  });
});

describe('GET /v1/screenshots/:id.png (by id, under the key)', () => {
  test('the owner gets the PNG with its safety and cache headers, with or without .png', async () => {
    const owner = await newCaller();
    const png = tinyPng();
    const { id } = await screenshots.save(owner.accountId, png);
    for (const path of [
      `/v1/screenshots/${id}.png`,
      `/v1/screenshots/${id}`,
      `/v1/screenshots/${id.toUpperCase()}.png`,
    ]) {
      const res = await fetch(`${base}${path}`, { headers: owner.auth });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
      const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
      expect(maxAge).toBeGreaterThan(24 * 3600 - 120);
      expect(maxAge).toBeLessThanOrEqual(24 * 3600);
      expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    }
    const head = await fetch(`${base}/v1/screenshots/${id}.png`, { method: 'HEAD', headers: owner.auth });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(png.length));
  });

  test('max-age counts down to the expiry', async () => {
    const owner = await newCaller();
    const { id } = await screenshots.save(owner.accountId, tinyPng());
    await db.prisma.screenshot.update({ where: { id }, data: { expiresAt: new Date(Date.now() + 90_500) } });
    const res = await fetch(`${base}/v1/screenshots/${id}.png`, { headers: owner.auth });
    expect(res.headers.get('cache-control')).toMatch(/^private, max-age=(8\d|90)$/);
  });

  test("another account's, an unknown, an expired and a malformed id are one and the same 404", async () => {
    const owner = await newCaller();
    const other = await newCaller();
    const { id } = await screenshots.save(owner.accountId, tinyPng());
    const expired = await screenshots.save(owner.accountId, tinyPng());
    await db.prisma.screenshot.update({
      where: { id: expired.id },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const answers = await Promise.all(
      [
        [other, `${id}.png`],
        [owner, '00000000-0000-4000-8000-000000000000.png'],
        [owner, `${expired.id}.png`],
        [owner, 'not-a-uuid.png'],
        [owner, `${id}.jpg`],
        [owner, `${id}.png.png`],
      ].map(async ([caller, file]) => {
        const res = await fetch(`${base}/v1/screenshots/${file}`, {
          headers: (caller as typeof owner).auth,
        });
        return { status: res.status, body: await res.json(), type: res.headers.get('content-type') };
      }),
    );
    for (const a of answers) {
      expect(a).toEqual({
        status: 404,
        body: {
          success: false,
          code: 'NOT_FOUND',
          error: 'Screenshot not found (unknown, expired or not yours)',
        },
        type: expect.stringContaining('application/json'),
      });
    }
  });

  test('no credentials: 401; the dashboard session cookie of the owner: 200', async () => {
    const owner = await newCaller();
    const { id } = await screenshots.save(owner.accountId, tinyPng());
    expect((await fetch(`${base}/v1/screenshots/${id}.png`)).status).toBe(401);
    const { token } = await sessions.open({ keyId: owner.keyId, accountId: owner.accountId, ttlMs: 60_000 });
    const res = await fetch(`${base}/v1/screenshots/${id}.png`, {
      headers: { Cookie: `${SESSION_COOKIE}=${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  });
});
