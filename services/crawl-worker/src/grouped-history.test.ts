import { rawEnv } from '@wcs/config';
import { AccountsRepository, createDb, type Db, migrateDatabase, PageHistoryRepository } from '@wcs/db';
import { withGroupedHistory } from './grouped-history';

const DB_URL = rawEnv('DATABASE_URL') ?? 'postgresql://postgres@127.0.0.1:5432/wcs_test';
const SITE = 'https://grouped.test';

let db: Db;
let history: PageHistoryRepository;

beforeAll(async () => {
  await migrateDatabase(DB_URL);
  db = createDb(DB_URL);
  history = new PageHistoryRepository(db);
});
afterAll(async () => {
  await db.close();
});

const row = (accountId: string, path: string, tag: string, at: Date) => ({
  accountId,
  urlKey: `${SITE}${path}`,
  tag,
  url: `${SITE}${path}`,
  markdown: `# ${path} ${tag}`,
  contentHash: `hash-${path}-${tag}`,
  statusCode: 200,
  etag: '"v1"',
  lastModified: null,
  metadata: { title: path },
  links: [{ url: `${SITE}/next`, key: `${SITE}/next`, nofollow: false }],
  variant: 'v',
  scrapedAt: at,
});

describe('withGroupedHistory', () => {
  it("reads and touches made together answer as the store's own, per account and tag", async () => {
    const { accountId } = await new AccountsRepository(db).create({ plan: 'free' });
    const at = new Date('2026-12-01T00:00:00.000Z');
    for (const path of ['/a', '/b', '/c']) await history.put(row(accountId, path, '', at));
    await history.put(row(accountId, '/a', 'weekly', at));
    const grouped = withGroupedHistory(history);

    const asked: Array<[string, string]> = [
      ['/a', ''],
      ['/b', ''],
      ['/missing', ''],
      ['/a', 'weekly'],
      ['/c', ''],
      ['/b', 'weekly'],
    ];
    const together = await Promise.all(asked.map(([p, tag]) => grouped.get(accountId, `${SITE}${p}`, tag)));
    const alone = [];
    for (const [p, tag] of asked) alone.push(await history.get(accountId, `${SITE}${p}`, tag));
    expect(together).toEqual(alone);
    expect(together.map((r) => r?.markdown ?? null)).toEqual([
      '# /a ',
      '# /b ',
      null,
      '# /a weekly',
      '# /c ',
      null,
    ]);

    // 304s: each row's time moves and the new validator is kept; a stale `was` leaves its row alone.
    const later = new Date('2026-12-02T00:00:00.000Z');
    await Promise.all([
      ...['/a', '/b', '/c'].map((p) =>
        grouped.touch({ accountId, urlKey: `${SITE}${p}`, tag: '' }, at, {
          etag: '"v2"',
          lastModified: null,
          scrapedAt: later,
        }),
      ),
      grouped.touch({ accountId, urlKey: `${SITE}/a`, tag: 'weekly' }, later, {
        etag: '"stale"',
        lastModified: null,
        scrapedAt: later,
      }),
    ]);
    const after = await history.getMany(
      accountId,
      ['/a', '/b', '/c'].map((p) => `${SITE}${p}`),
      '',
    );
    expect([...after.values()].map((r) => [r.etag, r.scrapedAt.toISOString()])).toEqual(
      Array(3).fill(['"v2"', later.toISOString()]),
    );
    expect((await history.get(accountId, `${SITE}/a`, 'weekly'))?.etag).toBe('"v1"');
  });
});
