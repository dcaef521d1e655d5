import { randomUUID } from 'node:crypto';
import { AccountsRepository } from './accounts.repository';
import type { Db } from './db';
import { MonitorChecksRepository } from './monitor-checks.repository';
import { MonitorsRepository } from './monitors.repository';
import { openTestDb } from './test-support/test-database';

// Checks of one monitor overlap and may finish out of order (the baseline job beside the first
// tick, a fetch slower than the interval): the order of their fetches decides, not of their commits.

let db: Db;
let accounts: AccountsRepository;
let monitors: MonitorsRepository;
let checks: MonitorChecksRepository;

beforeAll(async () => {
  db = await openTestDb();
  accounts = new AccountsRepository(db);
  monitors = new MonitorsRepository(db);
  checks = new MonitorChecksRepository(db);
});
afterAll(async () => {
  await db.close();
});

const at = (ms: number): Date => new Date(Date.UTC(2026, 0, 1, 12, 0, 0, ms));
const TEN = 'a'.repeat(64);
const TWELVE = 'b'.repeat(64);

async function monitor(credits: number): Promise<{ accountId: string; id: string }> {
  const { accountId } = await accounts.create({ plan: 'free', credits });
  // A reserved name: should a scheduler sharing this database pick it up, its fetch fails at once.
  const m = await monitors.create({
    accountId,
    url: 'http://pricing.invalid/',
    interval: 'weekly',
    webhookUrl: null,
    jitterMs: 0,
  });
  return { accountId, id: m.id };
}

const check = (monitorId: string, hash: string, observedAt: Date) =>
  checks.recordCheck({
    monitorId,
    checkId: randomUUID(),
    hash,
    snapshot: hash === TEN ? 'ten dollars' : 'twelve dollars',
    nextCheckAt: null,
    observedAt,
  });

describe('MonitorsRepository.recordCheck', () => {
  it('a check whose fetch began before a recorded one is superseded: billed, no change back to the old page', async () => {
    const { accountId, id } = await monitor(10);
    expect((await check(id, TEN, at(0))).kind).toBe('baseline');
    // The page changed; a slow check that fetched the old page (at 500 ms) finishes after a
    // quicker one that fetched the new page (at 1,000 ms).
    const quick = await check(id, TWELVE, at(1_000));
    expect(quick.kind).toBe('changed');
    const late = await check(id, TEN, at(500));
    expect(late.kind).toBe('superseded');
    const d = await monitors.detail(accountId, id);
    expect(d?.changes.map((c) => c.snapshot)).toEqual(['twelve dollars']);
    expect(d?.monitor.lastHash).toBe(TWELVE);
    // Every check is recorded and billed once, the superseded one as seen when it fetched.
    expect(d?.checkCount).toBe(3);
    expect(d?.checks.map((c) => c.checkedAt.getTime())).toEqual([at(1_000), at(500), at(0)].map(Number));
    expect((await accounts.get(accountId))?.balance).toBe(7);
    // The next check compares with the newest page, not with the superseded one.
    expect((await check(id, TWELVE, at(2_000))).kind).toBe('unchanged');
    expect((await check(id, TEN, at(3_000))).kind).toBe('changed');
  });

  it('a failed check in between supersedes nothing', async () => {
    const { id } = await monitor(10);
    expect((await check(id, TEN, at(0))).kind).toBe('baseline');
    await checks.recordFailedCheck(id, 'connection refused', 'FETCH_FAILED', null);
    // The failed check is stamped now, long after this fetch began: it has no page to compare.
    expect((await check(id, TWELVE, at(500))).kind).toBe('changed');
  });
});

describe('MonitorsRepository.detail', () => {
  it('lists checks judged irrelevant apart, after they left the last 20 checks', async () => {
    const { accountId, id } = await monitor(100);
    expect((await check(id, TEN, at(0))).kind).toBe('baseline');
    const judgement = { relevant: false, reason: 'Only the opening hours changed.' };
    const judged = await checks.recordCheck({
      monitorId: id,
      checkId: randomUUID(),
      hash: TWELVE,
      snapshot: 'twelve dollars',
      nextCheckAt: null,
      observedAt: at(100),
      baseHash: TEN,
      decision: { kind: 'irrelevant', judgement },
    });
    expect(judged.kind).toBe('irrelevant');
    for (let i = 0; i < 25; i++) expect((await check(id, TWELVE, at(200 + i))).kind).toBe('unchanged');
    const d = await monitors.detail(accountId, id);
    expect(d?.checks).toHaveLength(20);
    expect(d?.checks.some((c) => c.judgement)).toBe(false);
    expect(d?.changes).toEqual([]);
    expect(d?.irrelevantChanges).toEqual([{ checkedAt: at(100), judgement }]);
  });

  it('has no irrelevant changes for a monitor whose changes were relevant or unjudged', async () => {
    const { accountId, id } = await monitor(10);
    await check(id, TEN, at(0));
    await check(id, TWELVE, at(100));
    expect((await monitors.detail(accountId, id))?.irrelevantChanges).toEqual([]);
  });
});
