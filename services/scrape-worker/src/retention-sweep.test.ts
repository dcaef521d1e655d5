import { Writable } from 'node:stream';
import { crc32, deflateSync } from 'node:zlib';
import { rawEnv } from '@wcs/config';
import {
  AccountsRepository,
  createDb,
  type Db,
  PageCacheRepository,
  PageHistoryRepository,
  ScreenshotsRepository,
} from '@wcs/db';
import { createLogger } from '@wcs/logger';
import type { ChangeHistoryStore, PageCacheStore, ScreenshotStore } from '@wcs/scraper';
import { type S3Fixture, startS3Fixture } from '@wcs/testing';
import { type RetentionSweep, startRetentionSweep } from './retention-sweep';

function onePixelPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([head, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 1, 2, 3]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A logger whose lines the test can wait for. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{
    match: (l: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
  }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) {
        const line = JSON.parse(text) as Record<string, unknown>;
        lines.push(line);
        for (const w of [...waiters]) {
          if (w.match(line)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(line);
          }
        }
      }
      done();
    },
  });
  const logger = createLogger({ service: 'test', level: 'debug' }, stream);
  const next = (match: (l: Record<string, unknown>) => boolean, timeoutMs = 10_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no matching log line in ${timeoutMs} ms`)), timeoutMs);
      waiters.push({
        match,
        resolve: (l) => {
          clearTimeout(t);
          resolve(l);
        },
      });
    });
  return { logger, lines, next };
}

const HOUR = 3_600_000;
const PURGED = (l: Record<string, unknown>) => String(l.msg).startsWith('retention sweep purged');

let db: Db;
let s3: S3Fixture;
let accountId: string;
let sweep: RetentionSweep | undefined;

beforeAll(async () => {
  db = createDb(rawEnv('DATABASE_URL') ?? 'postgresql://postgres@127.0.0.1:5432/wcs_test');
  s3 = await startS3Fixture();
  accountId = (await new AccountsRepository(db).create({ plan: 'free' })).accountId;
});
afterEach(async () => {
  await sweep?.close();
  sweep = undefined;
});
afterAll(async () => {
  await s3.close();
  await db.close();
});

const bucket = (prefix: string) => ({
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  region: s3.region,
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
  prefix,
});

async function expiredScreenshot(repo: ScreenshotsRepository): Promise<string> {
  const { id } = await repo.save(accountId, onePixelPng());
  await db.prisma.screenshot.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
  return id;
}

async function cachedPage(cache: PageCacheRepository, ageMs: number): Promise<string> {
  const key = `sweep-${Math.random().toString(36).slice(2)}`;
  await cache.put(key, {
    url: 'https://example.com/',
    finalUrl: 'https://example.com/',
    statusCode: 200,
    contentType: 'text/html',
    engine: 'fetch',
    body: '<p>x</p>',
    headers: {},
    redirects: [],
    fetchedAt: new Date(Date.now() - ageMs),
  });
  return key;
}

const exists = {
  screenshot: async (id: string) => (await db.prisma.screenshot.count({ where: { id } })) === 1,
  page: async (key: string) => (await db.prisma.pageCacheEntry.count({ where: { key } })) === 1,
};

describe('retention sweep', () => {
  test("the repositories are the scraper's stores (checked by the compiler)", () => {
    const screenshots: ScreenshotStore = new ScreenshotsRepository(db, {
      publicUrl: 'http://localhost:3002',
      ttlMs: HOUR,
      storage: 'postgres',
    });
    const pageCache: PageCacheStore = new PageCacheRepository(db);
    const history: ChangeHistoryStore = new PageHistoryRepository(db);
    expect(typeof history.put).toBe('function');
    expect(typeof screenshots.save).toBe('function');
    expect(typeof pageCache.get).toBe('function');
  });

  test('purges expired screenshots (rows and bucket objects) and pages past the cache TTL, pass after pass', async () => {
    const screenshots = new ScreenshotsRepository(db, {
      publicUrl: 'http://localhost:3002',
      ttlMs: HOUR,
      storage: 's3',
      s3: bucket('x/'),
    });
    const pageCache = new PageCacheRepository(db);
    const shot = await expiredScreenshot(screenshots);
    const live = (await screenshots.save(accountId, onePixelPng())).id;
    const oldPage = await cachedPage(pageCache, 49 * HOUR);
    const freshPage = await cachedPage(pageCache, 47 * HOUR);
    expect(s3.objects.has(`x/${shot}.png`)).toBe(true);

    const log = capturedLogger();
    const firstPass = log.next(PURGED);
    sweep = startRetentionSweep({
      screenshots,
      pageCache,
      env: { RETENTION_SWEEP_MS: 1_000, PAGE_CACHE_TTL_HOURS: 48 },
      logger: log.logger,
      firstDelayMs: 0,
    });
    const line = await firstPass;
    expect(line.screenshots).toBeGreaterThanOrEqual(1);
    expect(line.pages).toBeGreaterThanOrEqual(1);
    expect(await exists.screenshot(shot)).toBe(false);
    expect(s3.objects.has(`x/${shot}.png`)).toBe(false);
    expect(await exists.page(oldPage)).toBe(false);
    expect(await exists.screenshot(live)).toBe(true);
    expect(s3.objects.has(`x/${live}.png`)).toBe(true);
    expect(await exists.page(freshPage)).toBe(true);

    // The timer keeps going: what expires later goes in a later pass.
    const laterPage = await cachedPage(pageCache, 50 * HOUR);
    const laterPass = log.next(PURGED);
    await laterPass;
    expect(await exists.page(laterPage)).toBe(false);
  });

  test('purges change-tracking history past CHANGE_TRACKING_RETENTION_DAYS; a newer scrape is kept', async () => {
    const pageHistory = new PageHistoryRepository(db);
    const DAY = 24 * HOUR;
    const row = (urlKey: string, ageMs: number) =>
      pageHistory.put({
        accountId,
        urlKey,
        tag: '',
        url: `https://${urlKey}/`,
        markdown: '# x',
        contentHash: 'h',
        statusCode: 200,
        etag: '"v1"',
        lastModified: null,
        scrapedAt: new Date(Date.now() - ageMs),
      });
    const old = `old-${Math.random().toString(36).slice(2)}.example`;
    const recent = `new-${Math.random().toString(36).slice(2)}.example`;
    await row(old, 31 * DAY);
    await row(recent, 29 * DAY);
    // An older write never replaces a newer one (a slow scrape finishing last).
    await row(recent, 40 * DAY);
    sweep = startRetentionSweep({
      screenshots: new ScreenshotsRepository(db, {
        publicUrl: 'http://localhost:3002',
        ttlMs: HOUR,
        storage: 'postgres',
      }),
      pageCache: new PageCacheRepository(db),
      pageHistory,
      env: { RETENTION_SWEEP_MS: 60_000, PAGE_CACHE_TTL_HOURS: 48, CHANGE_TRACKING_RETENTION_DAYS: 30 },
      logger: capturedLogger().logger,
      firstDelayMs: 60_000,
    });
    const result = await sweep.runOnce();
    expect(result.history).toBeGreaterThanOrEqual(1);
    expect(await pageHistory.get(accountId, old, '')).toBeUndefined();
    const kept = await pageHistory.get(accountId, recent, '');
    // The 29-day-old write, not the 40-day-old one that came after it.
    expect(kept?.etag).toBe('"v1"');
    expect(kept?.scrapedAt.getTime()).toBeGreaterThan(Date.now() - 30 * DAY);
  });

  test('a failing bucket is logged and does not keep the page cache from being purged', async () => {
    const screenshots = new ScreenshotsRepository(db, {
      publicUrl: 'http://localhost:3002',
      ttlMs: HOUR,
      storage: 's3',
      s3: bucket('y/'),
    });
    const pageCache = new PageCacheRepository(db);
    const shot = await expiredScreenshot(screenshots);
    const oldPage = await cachedPage(pageCache, 49 * HOUR);
    s3.failNext(503, 1_000);
    const log = capturedLogger();
    sweep = startRetentionSweep({
      screenshots,
      pageCache,
      env: { RETENTION_SWEEP_MS: 60_000, PAGE_CACHE_TTL_HOURS: 48 },
      logger: log.logger,
      firstDelayMs: 60_000,
    });
    const result = await sweep.runOnce();
    expect(result.pages).toBeGreaterThanOrEqual(1);
    expect(await exists.page(oldPage)).toBe(false);
    expect(await exists.screenshot(shot)).toBe(true);
    const warning = log.lines.find((l) => l.msg === 'retention sweep: a screenshot object was not deleted');
    expect(warning?.level).toBe(40);
    expect(JSON.stringify(log.lines)).not.toContain(s3.secretAccessKey);

    s3.failNext(503, 0);
    await sweep.runOnce();
    expect(await exists.screenshot(shot)).toBe(false);
  });

  test('close stops the timer before its first pass and waits for a pass in progress', async () => {
    const screenshots = new ScreenshotsRepository(db, {
      publicUrl: 'http://localhost:3002',
      ttlMs: HOUR,
      storage: 'postgres',
    });
    const pageCache = new PageCacheRepository(db);
    const log = capturedLogger();
    sweep = startRetentionSweep({
      screenshots,
      pageCache,
      env: { RETENTION_SWEEP_MS: 1_000, PAGE_CACHE_TTL_HOURS: 48 },
      logger: log.logger,
      firstDelayMs: 0,
    });
    const inProgress = sweep.runOnce();
    let settled = false;
    void inProgress.then(() => {
      settled = true;
    });
    await sweep.close();
    expect(settled).toBe(true);
    const passes = log.lines.filter((l) => String(l.msg).startsWith('retention sweep')).length;
    // The timer's own pass (delay 0) was cancelled by close: only the explicit pass logged.
    expect(passes).toBe(1);
  });
});
