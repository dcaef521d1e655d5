import { randomUUID } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import type { Db } from './db';
import { type CachedPageRecord, PageCacheRepository } from './page-cache.repository';
import { openTestDb } from './test-support/test-database';

let db: Db;
let cache: PageCacheRepository;

beforeAll(async () => {
  db = await openTestDb();
  cache = new PageCacheRepository(db, { maxBodyBytes: 64 * 1024 });
});
afterAll(() => db.close());

const MINUTE = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const newKey = () => randomUUID().replace(/-/g, '').padEnd(64, '0');

function page(over: Partial<CachedPageRecord> = {}): CachedPageRecord {
  return {
    url: 'https://example.com/a',
    finalUrl: 'https://example.com/b',
    statusCode: 200,
    contentType: 'text/html',
    engine: 'fetch',
    body: '<html><body><h1>Grüße</h1><p>Ünïcödé ✓ 🎉</p></body></html>',
    headers: { 'content-type': 'text/html; charset=utf-8', etag: '"abc"' },
    redirects: ['https://example.com/b'],
    fetchedAt: ago(5 * MINUTE),
    ...over,
  };
}

describe('PageCacheRepository', () => {
  test('put then get gives the page back exactly; the body is stored Brotli-compressed', async () => {
    const key = newKey();
    const p = page({ body: `${page().body}${'<p>repeated text</p>'.repeat(500)}` });
    await cache.put(key, p);
    expect(await cache.get(key, ago(10 * MINUTE))).toEqual(p);
    const row = await db.prisma.pageCacheEntry.findUniqueOrThrow({ where: { key } });
    expect(row.body.length).toBeLessThan(Buffer.byteLength(p.body) / 10);
    expect(brotliDecompressSync(row.body).toString('utf8')).toBe(p.body);
    expect(row.meta).toEqual({ headers: p.headers, redirects: p.redirects, encoding: 'br' });
  });

  test('bodies of every size round-trip through the window fitted to them (1 byte to 2 MB, past 64 KB repeats)', async () => {
    const big = new PageCacheRepository(db, { maxBodyBytes: 4 * 1024 * 1024 });
    const unit = '<p>Ünïcödé ✓ 🎉 text that repeats across the window</p>\n';
    for (const length of [1, 700, 70_000, 2 * 1024 * 1024]) {
      const key = newKey();
      // A long-distance repeat: the first 64 KB again at the end, so a wrong window would show.
      const head = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
      const p = page({ body: `${head}${head.slice(0, 65_536)}` });
      await big.put(key, p);
      expect(await big.get(key, ago(10 * MINUTE))).toEqual(p);
    }
  });

  test('a body the caller compressed already is stored as it is, under the same size cap', async () => {
    const key = newKey();
    const p = page({ body: `${page().body}${'<p>from the content thread</p>'.repeat(200)}` });
    const utf8 = Buffer.from(p.body, 'utf8');
    await cache.put(key, {
      ...p,
      body: '',
      compressedBody: { encoding: 'br', bytes: brotliCompressSync(utf8), size: utf8.length },
    });
    expect(await cache.get(key, ago(10 * MINUTE))).toEqual(p);
    const over = newKey();
    const tooBig = { encoding: 'br' as const, bytes: brotliCompressSync(utf8), size: 64 * 1024 + 1 };
    await cache.put(over, { ...p, body: '', compressedBody: tooBig });
    expect(await cache.get(over, ago(10 * MINUTE))).toBeUndefined();
  });

  test('an entry written before Brotli (gzip body, no encoding in meta) is still read', async () => {
    const key = newKey();
    const p = page();
    await cache.put(key, p);
    await db.prisma.pageCacheEntry.update({
      where: { key },
      data: {
        body: new Uint8Array(gzipSync(Buffer.from(p.body, 'utf8'))),
        meta: { headers: p.headers, redirects: p.redirects },
      },
    });
    expect(await cache.get(key, ago(10 * MINUTE))).toEqual(p);
    // An encoding this version does not know makes the entry a miss, not garbage.
    await db.prisma.pageCacheEntry.update({
      where: { key },
      data: { meta: { headers: p.headers, redirects: p.redirects, encoding: 'zstd' } },
    });
    expect(await cache.get(key, ago(10 * MINUTE))).toBeUndefined();
  });

  test('get answers only entries fetched at or after `fetchedAfter`, and only for the same key', async () => {
    const key = newKey();
    const fetchedAt = ago(30 * MINUTE);
    await cache.put(key, page({ fetchedAt }));
    expect(await cache.get(key, ago(10 * MINUTE))).toBeUndefined();
    expect((await cache.get(key, fetchedAt))?.fetchedAt).toEqual(fetchedAt);
    expect(await cache.get(key, ago(60 * MINUTE))).toBeDefined();
    expect(await cache.get(newKey(), ago(60 * MINUTE))).toBeUndefined();
  });

  test('put replaces an older entry and never a newer one', async () => {
    const key = newKey();
    await cache.put(key, page({ body: 'first', fetchedAt: ago(20 * MINUTE) }));
    await cache.put(
      key,
      page({ body: 'second', engine: 'browser', statusCode: 203, fetchedAt: ago(10 * MINUTE) }),
    );
    expect(await cache.get(key, ago(60 * MINUTE))).toMatchObject({
      body: 'second',
      engine: 'browser',
      statusCode: 203,
    });
    // A slower concurrent scrape that fetched earlier finishes last: the newer copy stays.
    await cache.put(key, page({ body: 'stale', fetchedAt: ago(15 * MINUTE) }));
    expect((await cache.get(key, ago(60 * MINUTE)))?.body).toBe('second');
    expect(await db.prisma.pageCacheEntry.count({ where: { key } })).toBe(1);
  });

  test('concurrent puts of one key end with one row holding the newest copy', async () => {
    const key = newKey();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        cache.put(key, page({ body: `copy ${i}`, fetchedAt: ago((8 - i) * 1_000) })),
      ),
    );
    expect((await cache.get(key, ago(60 * MINUTE)))?.body).toBe('copy 7');
  });

  test('a body over the cap is not stored (counted in UTF-8 bytes)', async () => {
    const key = newKey();
    await cache.put(key, page({ body: 'é'.repeat(40 * 1024) })); // 80 KiB of UTF-8 > 64 KiB
    expect(await db.prisma.pageCacheEntry.count({ where: { key } })).toBe(0);
    await cache.put(key, page({ body: 'e'.repeat(40 * 1024) }));
    expect(await db.prisma.pageCacheEntry.count({ where: { key } })).toBe(1);
  });

  test('cookies the site set are not kept in the shared copy', async () => {
    const key = newKey();
    await cache.put(key, page({ headers: { 'content-type': 'text/html', 'Set-Cookie': 'sid=secret' } }));
    expect((await cache.get(key, ago(60 * MINUTE)))?.headers).toEqual({ 'content-type': 'text/html' });
    const row = await db.prisma.pageCacheEntry.findUniqueOrThrow({ where: { key } });
    expect(JSON.stringify(row.meta)).not.toContain('secret');
  });

  test('an unreadable entry (corrupt body or meta) is a miss, not an error', async () => {
    const key = newKey();
    await cache.put(key, page());
    await db.prisma.pageCacheEntry.update({ where: { key }, data: { body: new Uint8Array([1, 2, 3]) } });
    expect(await cache.get(key, ago(60 * MINUTE))).toBeUndefined();
    const other = newKey();
    await cache.put(other, page());
    await db.prisma.pageCacheEntry.update({ where: { key: other }, data: { meta: { headers: 'x' } } });
    expect(await cache.get(other, ago(60 * MINUTE))).toBeUndefined();
  });

  test('purgeOlderThan deletes entries fetched before the date and keeps the rest', async () => {
    const old = newKey();
    const fresh = newKey();
    await cache.put(old, page({ fetchedAt: ago(49 * 60 * MINUTE) }));
    await cache.put(fresh, page({ fetchedAt: ago(MINUTE) }));
    expect(await cache.purgeOlderThan(ago(48 * 60 * MINUTE))).toBeGreaterThanOrEqual(1);
    expect(await db.prisma.pageCacheEntry.count({ where: { key: old } })).toBe(0);
    expect(await db.prisma.pageCacheEntry.count({ where: { key: fresh } })).toBe(1);
  });
});
