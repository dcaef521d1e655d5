import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { type S3Fixture, startS3Fixture } from '@wcs/testing';
import { AccountsRepository } from './accounts.repository';
import type { Db } from './db';
import { pngDimensions } from './png-dimensions';
import {
  createScreenshotStore,
  type ScreenshotSettings,
  ScreenshotsRepository,
} from './screenshots.repository';
import { openTestDb } from './test-support/test-database';

/** A real PNG (RGB, filter byte 0 per row) of the given size, filled with one colour. */
function makePng(width: number, height: number, seed = 0): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, seed)]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const HOUR = 3_600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR);

let db: Db;
let accounts: AccountsRepository;
let s3: S3Fixture;

beforeAll(async () => {
  db = await openTestDb();
  accounts = new AccountsRepository(db);
  s3 = await startS3Fixture({ bucket: 'shots', region: 'eu-central-1' });
});
afterAll(async () => {
  await s3.close();
  await db.close();
});

const newAccount = async () => (await accounts.create({ plan: 'free' })).accountId;

/** The token of a capability URL on `base`, or a failed expectation. */
function tokenOf(url: string, base: string): string {
  const m = /^(.*)\/v1\/screenshots\/([A-Za-z0-9_-]{74})\.png$/.exec(url);
  expect(m?.[1]).toBe(base);
  return m?.[2] ?? '';
}

function s3Settings(over: Partial<NonNullable<ScreenshotSettings['s3']>> = {}) {
  return {
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    prefix: 'shots/',
    ...over,
  };
}

describe('pngDimensions', () => {
  test('reads the IHDR size and refuses what is not a PNG', () => {
    expect(pngDimensions(makePng(17, 5))).toEqual({ width: 17, height: 5 });
    expect(pngDimensions(randomBytes(100))).toBeUndefined();
    expect(pngDimensions(makePng(17, 5).subarray(0, 20))).toBeUndefined();
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60)]);
    expect(pngDimensions(jpeg)).toBeUndefined();
    const noIhdr = makePng(3, 3);
    noIhdr.write('IDAT', 12, 'latin1');
    expect(pngDimensions(noIhdr)).toBeUndefined();
  });
});

describe('ScreenshotsRepository in PostgreSQL', () => {
  const settings: ScreenshotSettings = {
    publicUrl: 'https://scrape.example.com',
    ttlMs: 24 * HOUR,
    storage: 'postgres',
  };

  test('save keeps the PNG with its size and answers the served URL; the owner opens it', async () => {
    const repo = new ScreenshotsRepository(db, settings);
    const owner = await newAccount();
    const png = makePng(40, 30, 7);
    const savedFrom = Date.now();
    const saved = await repo.save(owner, png);
    const savedBy = Date.now();
    expect(saved.id).toMatch(/^[0-9a-f-]{36}$/);
    const token = tokenOf(saved.url, 'https://scrape.example.com');
    const row = await db.prisma.screenshot.findUniqueOrThrow({ where: { id: saved.id } });
    expect(row).toMatchObject({
      accountId: owner,
      storage: 'postgres',
      bytes: png.length,
      width: 40,
      height: 30,
    });
    expect(Buffer.from(row.png ?? []).equals(png)).toBe(true);
    // The TTL counted from the save (bracketed by the clock around it, whatever the machine's pace).
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(savedFrom + 24 * HOUR);
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(savedBy + 24 * HOUR);
    const opened = await repo.open(owner, saved.id);
    expect(opened?.png.equals(png)).toBe(true);
    expect(opened).toMatchObject({ width: 40, height: 30, expiresAt: row.expiresAt });
    expect((await repo.openByToken(token))?.png.equals(png)).toBe(true);
  });

  test('the URL is a capability: openByToken serves it to anyone until the screenshot expires', async () => {
    const repo = new ScreenshotsRepository(db, settings);
    const png = makePng(5, 6, 1);
    const saved = await repo.save(await newAccount(), png);
    const token = tokenOf(saved.url, 'https://scrape.example.com');
    const row = await db.prisma.screenshot.findUniqueOrThrow({ where: { id: saved.id } });
    const opened = await repo.openByToken(token);
    expect(opened?.png.equals(png)).toBe(true);
    // The token expires with the screenshot (to the second, never later).
    const expiry = opened?.expiresAt.getTime() ?? 0;
    expect(expiry).toBeLessThanOrEqual(row.expiresAt.getTime());
    expect(expiry).toBeGreaterThan(row.expiresAt.getTime() - 1_000);
    // A clock past the token's expiry, a token of another id, the row expired: all undefined.
    expect(await repo.openByToken(token, new Date(expiry))).toBeUndefined();
    expect(
      await repo.openByToken(
        token.replace(/^(.{10})./, (_m, head) => `${head}${token[10] === 'A' ? 'B' : 'A'}`),
      ),
    ).toBeUndefined();
    await db.prisma.screenshot.update({
      where: { id: saved.id },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    expect(await repo.openByToken(token)).toBeUndefined();
  });

  test('without SCREENSHOT_URL_SECRET every instance shares the stored secret; a configured one differs', async () => {
    const a = new ScreenshotsRepository(db, settings);
    const b = new ScreenshotsRepository(db, settings);
    const saved = await a.save(await newAccount(), makePng(2, 3));
    const token = tokenOf(saved.url, 'https://scrape.example.com');
    // Another replica (another process: a fresh instance) reads the same secret from PostgreSQL.
    expect((await b.openByToken(token))?.width).toBe(2);
    const secrets = await db.prisma.deploymentSecret.findMany({ where: { name: 'screenshot-url' } });
    expect(secrets).toHaveLength(1);
    expect(secrets[0]?.value.length).toBe(32);
    const configured = { ...settings, urlSecret: 'a configured secret of 32 characters or more' };
    const c = new ScreenshotsRepository(db, configured);
    expect(await c.openByToken(token)).toBeUndefined();
    const mine = tokenOf(await c.urlOf(saved.id, inHours(1)), 'https://scrape.example.com');
    expect((await new ScreenshotsRepository(db, configured).openByToken(mine))?.height).toBe(3);
    expect(await a.openByToken(mine)).toBeUndefined();
  });

  test('another account, an unknown id, a malformed id and an expired one all open as undefined', async () => {
    const repo = new ScreenshotsRepository(db, settings);
    const owner = await newAccount();
    const other = await newAccount();
    const { id } = await repo.save(owner, makePng(2, 2));
    expect(await repo.open(other, id)).toBeUndefined();
    expect(await repo.open(owner, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(await repo.open(owner, 'not-a-uuid')).toBeUndefined();
    expect(await repo.open(owner, `${id}.png`)).toBeUndefined();
    await db.prisma.screenshot.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await repo.open(owner, id)).toBeUndefined();
  });

  test('refuses bytes that are not a PNG and stores nothing', async () => {
    const repo = new ScreenshotsRepository(db, settings);
    const owner = await newAccount();
    await expect(repo.save(owner, randomBytes(64))).rejects.toMatchObject({ code: 'INTERNAL' });
    await expect(repo.save(owner, Buffer.alloc(0))).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(await db.prisma.screenshot.count({ where: { accountId: owner } })).toBe(0);
  });

  test('purgeExpired deletes the rows expired at `now` and keeps the others', async () => {
    const short = new ScreenshotsRepository(db, { ...settings, ttlMs: 1 * HOUR });
    const long = new ScreenshotsRepository(db, { ...settings, ttlMs: 48 * HOUR });
    const owner = await newAccount();
    const a = await short.save(owner, makePng(3, 3));
    const b = await long.save(owner, makePng(4, 4));
    expect(await short.purgeExpired(new Date())).toBeGreaterThanOrEqual(0);
    expect(await db.prisma.screenshot.count({ where: { accountId: owner } })).toBe(2);
    const purged = await short.purgeExpired(inHours(2));
    expect(purged).toBeGreaterThanOrEqual(1);
    const left = await db.prisma.screenshot.findMany({ where: { accountId: owner }, select: { id: true } });
    expect(left.map((r) => r.id)).toEqual([b.id]);
    expect(await short.open(owner, a.id)).toBeUndefined();
    // Idempotent: a second sweep (another replica) finds nothing of these left.
    await short.purgeExpired(inHours(2));
    expect(await db.prisma.screenshot.count({ where: { id: b.id } })).toBe(1);
  });
});

describe('ScreenshotsRepository in an S3 bucket', () => {
  const settings = (): ScreenshotSettings => ({
    publicUrl: 'http://localhost:3002',
    ttlMs: 24 * HOUR,
    storage: 's3',
    s3: s3Settings(),
  });

  test('save uploads a signed PUT of <prefix><id>.png; the row holds no bytes; the owner reads it back', async () => {
    const repo = new ScreenshotsRepository(db, settings());
    const owner = await newAccount();
    const png = makePng(64, 48, 3);
    const saved = await repo.save(owner, png);
    tokenOf(saved.url, 'http://localhost:3002');
    const object = s3.objects.get(`shots/${saved.id}.png`);
    expect(object?.contentType).toBe('image/png');
    expect(object?.body.equals(png)).toBe(true);
    const row = await db.prisma.screenshot.findUniqueOrThrow({ where: { id: saved.id } });
    expect(row).toMatchObject({ storage: 's3', png: null, bytes: png.length, width: 64, height: 48 });
    const before = s3.requests.length;
    expect((await repo.open(owner, saved.id))?.png.equals(png)).toBe(true);
    expect(s3.requests.slice(before)).toEqual([{ method: 'GET', key: `shots/${saved.id}.png`, status: 200 }]);
    // Another account's request never reaches the bucket.
    const other = await newAccount();
    const count = s3.requests.length;
    expect(await repo.open(other, saved.id)).toBeUndefined();
    expect(s3.requests.length).toBe(count);
  });

  test('a wrong secret is refused by the bucket: save fails without leaving a row or leaking the secret', async () => {
    const secret = 'definitely-wrong-secret-0123456789';
    const repo = new ScreenshotsRepository(db, {
      ...settings(),
      s3: s3Settings({ secretAccessKey: secret }),
    });
    const owner = await newAccount();
    const err = await repo.save(owner, makePng(5, 5)).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(err?.code).toBe('UNAVAILABLE');
    expect(err?.message).toContain('403 SignatureDoesNotMatch');
    expect(err?.message).not.toContain(secret);
    expect(s3.requests.at(-1)).toMatchObject({
      method: 'PUT',
      status: 403,
      refused: 'signature does not match',
    });
    expect(await db.prisma.screenshot.count({ where: { accountId: owner } })).toBe(0);
  });

  test('a missing object opens as undefined', async () => {
    const repo = new ScreenshotsRepository(db, settings());
    const owner = await newAccount();
    const { id } = await repo.save(owner, makePng(6, 6));
    s3.objects.delete(`shots/${id}.png`);
    expect(await repo.open(owner, id)).toBeUndefined();
  });

  test('purgeExpired deletes the objects and then the rows; a failed delete keeps its row for the next sweep', async () => {
    const repo = new ScreenshotsRepository(db, { ...settings(), ttlMs: 1 * HOUR });
    const owner = await newAccount();
    const a = await repo.save(owner, makePng(7, 7));
    const b = await repo.save(owner, makePng(8, 8));
    const keep = await new ScreenshotsRepository(db, { ...settings(), ttlMs: 72 * HOUR }).save(
      owner,
      makePng(9, 9),
    );

    s3.failNext(503, 100);
    const errors: unknown[] = [];
    await repo.purgeExpired(inHours(2), { onError: (e) => errors.push(e) });
    expect(errors.length).toBeGreaterThan(0);
    expect(await db.prisma.screenshot.count({ where: { id: { in: [a.id, b.id] } } })).toBe(2);
    expect(s3.objects.has(`shots/${a.id}.png`)).toBe(true);

    s3.failNext(503, 0);
    expect(await repo.purgeExpired(inHours(2))).toBeGreaterThanOrEqual(2);
    expect(await db.prisma.screenshot.count({ where: { id: { in: [a.id, b.id] } } })).toBe(0);
    expect(s3.objects.has(`shots/${a.id}.png`)).toBe(false);
    expect(s3.objects.has(`shots/${b.id}.png`)).toBe(false);
    expect(s3.objects.has(`shots/${keep.id}.png`)).toBe(true);
    expect(await db.prisma.screenshot.count({ where: { id: keep.id } })).toBe(1);
  });

  test('switched back to PostgreSQL with the bucket still configured: old objects stay readable and purgeable', async () => {
    const owner = await newAccount();
    const old = await new ScreenshotsRepository(db, { ...settings(), ttlMs: 1 * HOUR }).save(
      owner,
      makePng(10, 10),
    );
    const now = new ScreenshotsRepository(db, { ...settings(), storage: 'postgres', ttlMs: 1 * HOUR });
    const fresh = await now.save(owner, makePng(11, 11));
    expect((await db.prisma.screenshot.findUniqueOrThrow({ where: { id: fresh.id } })).storage).toBe(
      'postgres',
    );
    expect((await now.open(owner, old.id))?.width).toBe(10);
    await now.purgeExpired(inHours(2));
    expect(s3.objects.has(`shots/${old.id}.png`)).toBe(false);
    expect(await db.prisma.screenshot.count({ where: { accountId: owner } })).toBe(0);
  });
});

const settingsOf = (): ScreenshotSettings => ({ publicUrl: 'http://x', ttlMs: HOUR, storage: 'postgres' });

describe('createScreenshotStore', () => {
  const base = {
    PUBLIC_URL: 'https://scrape.example.com/',
    SCREENSHOT_TTL_HOURS: 2,
    S3_REGION: 'eu-central-1',
    S3_PREFIX: 'p/',
  };

  test('PostgreSQL by default, TTL in hours, URL without a double slash', async () => {
    const repo = createScreenshotStore({ ...base, SCREENSHOT_STORAGE: 'postgres' }, db);
    const owner = await newAccount();
    const savedFrom = Date.now();
    const { id, url } = await repo.save(owner, makePng(1, 1));
    const savedBy = Date.now();
    tokenOf(url, 'https://scrape.example.com');
    const row = await db.prisma.screenshot.findUniqueOrThrow({ where: { id } });
    expect(row.storage).toBe('postgres');
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(savedFrom + 2 * HOUR);
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(savedBy + 2 * HOUR);
  });

  test('PUBLIC_URL unset: URLs on http://localhost:3002; SCREENSHOT_URL_SECRET signs them', async () => {
    const { PUBLIC_URL: _unset, ...rest } = base;
    const secret = 'the deployment secret, 32 characters at least';
    const repo = createScreenshotStore(
      { ...rest, SCREENSHOT_STORAGE: 'postgres', SCREENSHOT_URL_SECRET: secret },
      db,
    );
    const { url } = await repo.save(await newAccount(), makePng(1, 1));
    const token = tokenOf(url, 'http://localhost:3002');
    const same = new ScreenshotsRepository(db, { ...settingsOf(), urlSecret: secret });
    expect((await same.openByToken(token))?.width).toBe(1);
    expect(await new ScreenshotsRepository(db, settingsOf()).openByToken(token)).toBeUndefined();
  });

  test('s3 storage from the variables; s3 without them is refused at construction', async () => {
    const repo = createScreenshotStore(
      {
        ...base,
        SCREENSHOT_STORAGE: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: s3.bucket,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      },
      db,
    );
    const { id } = await repo.save(await newAccount(), makePng(1, 2));
    expect(s3.objects.has(`p/${id}.png`)).toBe(true);
    expect(() => createScreenshotStore({ ...base, SCREENSHOT_STORAGE: 's3', S3_BUCKET: 'x' }, db)).toThrow(
      /S3_ENDPOINT/,
    );
  });
});
