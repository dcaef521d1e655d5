import { InsufficientCreditsError } from '@wcs/errors';
import { AccountsRepository } from './accounts.repository';
import { BatchesRepository } from './batches.repository';
import { CreditsRepository } from './credits.repository';
import type { Db } from './db';
import { openTestDb } from './test-support/test-database';

let db: Db;
let accounts: AccountsRepository;
let credits: CreditsRepository;
let batches: BatchesRepository;

beforeAll(async () => {
  db = await openTestDb();
  accounts = new AccountsRepository(db);
  credits = new CreditsRepository(db);
  batches = new BatchesRepository(db);
});
afterAll(() => db.close());

const urls = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${i}` }));
const ledgerSum = async (accountId: string) =>
  (await credits.ledger(accountId, 1000)).reduce((s, r) => s + r.amount, 0);
const doc = { markdown: '# Hi', html: '<h1>Hi</h1>', text: 'Hi', metadata: { title: 'Hi', statusCode: 200 } };

describe('BatchesRepository', () => {
  test('create charges upfront and queues items in order', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 10 });
    const b = await batches.create({
      accountId,
      items: [{ url: 'https://a.test/', clientId: 'first' }, { url: 'https://b.test/' }],
      format: 'markdown',
      onlyMainContent: true,
    });
    expect(b.items.map((i) => [i.position, i.url])).toEqual([
      [0, 'https://a.test/'],
      [1, 'https://b.test/'],
    ]);
    expect(await credits.balance(accountId)).toBe(8);
    const got = await batches.get(accountId, b.batchId);
    expect(got).toMatchObject({
      batchId: b.batchId,
      status: 'pending',
      total: 2,
      completed: 0,
      failed: 0,
      creditsUsed: 2,
      format: 'markdown',
      onlyMainContent: true,
    });
    expect(got?.items.map((i) => [i.clientId, i.status, i.result])).toEqual([
      ['first', 'queued', null],
      [null, 'queued', null],
    ]);
  });

  test('a batch the account cannot pay for is refused whole', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 3 });
    await expect(
      batches.create({ accountId, items: urls(4), format: 'markdown', onlyMainContent: false }),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect(await credits.balance(accountId)).toBe(3);
    expect(await db.prisma.batch.count({ where: { accountId } })).toBe(0);
  });

  test('get hides other accounts’ batches', async () => {
    const owner = await accounts.create({ plan: 'free' });
    const other = await accounts.create({ plan: 'free' });
    const b = await batches.create({
      accountId: owner.accountId,
      items: urls(1),
      format: 'html',
      onlyMainContent: false,
    });
    expect(await batches.get(other.accountId, b.batchId)).toBeNull();
    expect(await batches.get(owner.accountId, 'nope')).toBeNull();
  });

  test('lifecycle: start, complete, fail with refund, batch done', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 3 });
    const b = await batches.create({ accountId, items: urls(3), format: 'markdown', onlyMainContent: true });
    const [i0, i1, i2] = b.items.map((i) => i.itemId) as [string, string, string];

    const started = await batches.startItem(i0);
    expect(started).toEqual({
      itemId: i0,
      batchId: b.batchId,
      accountId,
      url: 'https://example.com/0',
      format: 'markdown',
      onlyMainContent: true,
      attempts: 1,
      pageOptions: null,
      pageSecrets: null,
    });
    expect((await batches.get(accountId, b.batchId))?.status).toBe('processing');
    expect((await batches.startItem(i0))?.attempts).toBe(2); // redelivery after a crash

    expect(await batches.completeItem(i0, doc)).toBe(true);
    expect(await batches.completeItem(i0, doc)).toBe(false);
    expect(await batches.startItem(i0)).toBeNull();

    expect(
      await batches.failItem(i1, { error: 'Target responded with HTTP 404', code: 'TARGET_HTTP_ERROR' }),
    ).toBe(true);
    expect(await batches.failItem(i1, { error: 'again', code: 'X' })).toBe(false);
    expect(await credits.balance(accountId)).toBe(1);

    let got = await batches.get(accountId, b.batchId);
    expect(got).toMatchObject({ status: 'processing', completed: 1, failed: 1, creditsUsed: 2 });

    expect(await batches.completeItem(i2, doc)).toBe(true);
    got = await batches.get(accountId, b.batchId);
    expect(got).toMatchObject({ status: 'done', completed: 2, failed: 1, creditsUsed: 2 });
    expect(got?.items.map((i) => i.status)).toEqual(['done', 'failed', 'done']);
    expect(got?.items[0]?.result).toEqual(doc);
    expect(got?.items[1]).toMatchObject({
      error: 'Target responded with HTTP 404',
      errorCode: 'TARGET_HTTP_ERROR',
    });
    const row = await db.prisma.batch.findUniqueOrThrow({ where: { id: b.batchId } });
    expect(row.finishedAt).toBeInstanceOf(Date);
    const refunds = await db.prisma.creditLedger.findMany({ where: { accountId, reason: 'batch_refund' } });
    expect(refunds.map((r) => [r.amount, r.reference])).toEqual([[1, i1]]);
  });

  test('page options reach every item; the secrets are cleared by the statement that ends the batch', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 2 });
    const secrets = { headers: { Cookie: 'session=s3cr3t' } };
    const b = await batches.create({
      accountId,
      items: urls(2),
      format: 'markdown',
      onlyMainContent: true,
      pageOptions: { formats: ['links'], mobile: true },
      pageSecrets: secrets,
    });
    const [i0, i1] = b.items.map((i) => i.itemId) as [string, string];
    const secretsNow = async () =>
      (await db.prisma.batch.findUniqueOrThrow({ where: { id: b.batchId } })).pageSecrets;
    expect(await batches.startItem(i0)).toMatchObject({
      pageOptions: { formats: ['links'], mobile: true },
      pageSecrets: secrets,
    });
    await batches.completeItem(i0, doc);
    expect(await secretsNow()).toEqual(secrets); // one item left: still needed
    expect((await batches.startItem(i1))?.pageSecrets).toEqual(secrets);
    await batches.failItem(i1, { error: 'boom', code: 'TIMEOUT' });
    expect((await batches.get(accountId, b.batchId))?.status).toBe('done');
    expect(await secretsNow()).toBeNull();
  });

  test('a billed failure (the caller spent the budget) keeps its credit: no refund row', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 2 });
    const b = await batches.create({ accountId, items: urls(2), format: 'markdown', onlyMainContent: true });
    const [i0, i1] = b.items.map((i) => i.itemId) as [string, string];
    await batches.startItem(i0);
    await batches.startItem(i1);
    expect(
      await batches.failItem(i0, {
        error: 'includeTags took too long',
        code: 'SELECTOR_TOO_EXPENSIVE',
        billed: true,
      }),
    ).toBe(true);
    expect(await batches.failItem(i1, { error: 'HTTP 500', code: 'TARGET_HTTP_ERROR' })).toBe(true);
    expect(await credits.balance(accountId)).toBe(1);
    const refunds = await db.prisma.creditLedger.findMany({ where: { accountId, reason: 'batch_refund' } });
    expect(refunds.map((r) => r.reference)).toEqual([i1]);
    expect(await batches.get(accountId, b.batchId)).toMatchObject({
      status: 'done',
      failed: 2,
      creditsUsed: 1,
    });
  });

  test('concurrent complete/fail of the same item: exactly one wins', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 1 });
    const b = await batches.create({ accountId, items: urls(1), format: 'markdown', onlyMainContent: false });
    const itemId = b.items[0]!.itemId;
    await batches.startItem(itemId);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? batches.completeItem(itemId, doc)
          : batches.failItem(itemId, { error: 'boom', code: 'TIMEOUT' }),
      ),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const got = await batches.get(accountId, b.batchId);
    expect(got).toMatchObject({ status: 'done' });
    expect(got!.completed + got!.failed).toBe(1);
    expect(await credits.balance(accountId)).toBe(got!.failed); // refunded only if the failure won
  });

  /** An account with `n` credits and a batch of `n` items it paid for. */
  async function fundedBatch(n: number) {
    const { accountId } = await accounts.create({ plan: 'free', credits: n });
    const b = await batches.create({ accountId, items: urls(n), format: 'markdown', onlyMainContent: false });
    return { accountId, b };
  }

  test('concurrent finishes of all items close the batch exactly once with exact counters', async () => {
    const { accountId, b } = await fundedBatch(40);
    await Promise.all(
      b.items.map((it, i) =>
        i % 4 === 0
          ? batches.failItem(it.itemId, { error: 'nope', code: 'TARGET_UNREACHABLE' })
          : batches.completeItem(it.itemId, doc),
      ),
    );
    const got = await batches.get(accountId, b.batchId);
    expect(got).toMatchObject({ status: 'done', total: 40, completed: 30, failed: 10, creditsUsed: 30 });
    expect(await credits.balance(accountId)).toBe(10);
    const sum = await ledgerSum(accountId);
    expect(sum).toBe(10);
  });

  test('items started here finish in one statement (no webhook): counters and the close stay exact', async () => {
    const { accountId, b } = await fundedBatch(40);
    // Started through this repository: a done item takes the one-statement path; a failure the transaction.
    for (const it of b.items) await batches.startItem(it.itemId);
    const outcomes = await Promise.all(
      b.items.flatMap((it, i) => [
        i % 4 === 0
          ? batches.failItem(it.itemId, { error: 'nope', code: 'TARGET_UNREACHABLE' })
          : batches.completeItem(it.itemId, doc),
        // A duplicate delivery racing the first finish changes nothing.
        batches.completeItem(it.itemId, doc),
      ]),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(40);
    const got = await batches.get(accountId, b.batchId);
    expect(got).toMatchObject({
      status: 'done',
      completed: got!.total - got!.failed,
      creditsUsed: 40 - got!.failed,
    });
    expect(got!.items.every((it) => it.status === 'done' || it.status === 'failed')).toBe(true);
    expect(got!.items.filter((it) => it.status === 'done').every((it) => it.result !== null)).toBe(true);
    expect(await credits.balance(accountId)).toBe(got!.failed);
    const sum = await ledgerSum(accountId);
    expect(sum).toBe(got!.failed);
  });

  test('NUL characters from scraped pages are dropped (PostgreSQL rejects them in jsonb/text)', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 2 });
    const b = await batches.create({ accountId, items: urls(2), format: 'markdown', onlyMainContent: false });
    const [i0, i1] = b.items.map((i) => i.itemId) as [string, string];
    expect(
      await batches.completeItem(i0, { ...doc, text: 'a\u0000b', markdown: 'literal \\u0000 stays' }),
    ).toBe(true);
    expect(await batches.failItem(i1, { error: 'bad\u0000byte', code: 'X' })).toBe(true);
    const got = await batches.get(accountId, b.batchId);
    expect(got?.items[0]?.result).toMatchObject({ text: 'ab', markdown: 'literal \\u0000 stays' });
    expect(got?.items[1]?.error).toBe('badbyte');
  });

  test('findUnfinishedItems returns stale queued/running items only', async () => {
    const { accountId } = await accounts.create({ plan: 'free', credits: 3 });
    const b = await batches.create({ accountId, items: urls(3), format: 'markdown', onlyMainContent: false });
    const [i0, i1, i2] = b.items.map((i) => i.itemId) as [string, string, string];
    await batches.startItem(i1);
    await batches.completeItem(i2, doc);
    // Age this batch's items instead of sleeping.
    await db.prisma.$executeRaw`
      UPDATE batch_items SET updated_at = now() - interval '1 hour' WHERE batch_id = ${b.batchId}::uuid`;
    const stale = await batches.findUnfinishedItems(30 * 60_000, 10_000);
    const mine = stale.filter((s) => s.batchId === b.batchId).map((s) => s.itemId);
    expect(mine.sort()).toEqual([i0, i1].sort());
    expect(
      (await batches.findUnfinishedItems(2 * 3600_000, 10_000)).some((s) => s.batchId === b.batchId),
    ).toBe(false);
  });
});
