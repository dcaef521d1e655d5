import { rawEnv } from '@wcs/config';
import { AccountsRepository, createDb, type Db, DocumentsRepository, migrateDatabase } from '@wcs/db';
import { SearchIndexer } from './search-indexer';

let db: Db;
beforeAll(async () => {
  const url = rawEnv('DATABASE_URL') ?? 'postgresql://postgres@127.0.0.1:5432/wcs_test';
  await migrateDatabase(url);
  db = createDb(url, { poolSize: 2 });
});

async function createTestAccount(db: Db): Promise<{ accountId: string }> {
  return new AccountsRepository(db).create({ plan: 'free', credits: 0 });
}
afterAll(async () => {
  await db.close();
});

/** The real repository, counting the pages of each statement the indexer sends. */
class CountingDocuments extends DocumentsRepository {
  readonly batches: number[] = [];
  override upsertMany(docs: Parameters<DocumentsRepository['upsertMany']>[0]) {
    this.batches.push(docs.length);
    return super.upsertMany(docs);
  }
}

describe('SearchIndexer', () => {
  it('idle() resolves once every page handed over is written and searchable', async () => {
    const account = await createTestAccount(db);
    const documents = new DocumentsRepository(db);
    const indexer = new SearchIndexer(documents, { warn: () => undefined });
    const pages = Array.from({ length: 5 }, (_, i) => `https://indexer.test/page/${i}`);
    for (const [i, url] of pages.entries())
      await indexer.add(account.accountId, url, {
        markdown: `Page ${i} about quasar spectroscopy`,
        metadata: { title: `P${i}` },
      });
    await indexer.idle();
    for (const url of pages) expect((await documents.get(account.accountId, url))?.title).toMatch(/^P\d$/);
    const hits = await documents.search({ accountId: account.accountId, query: 'quasar', limit: 10 });
    expect(hits.map((h) => h.url).sort()).toEqual([...pages].sort());
  });

  it('skips pages without markdown, logs a failed write and keeps going', async () => {
    const account = await createTestAccount(db);
    const documents = new DocumentsRepository(db);
    const warnings: string[] = [];
    const indexer = new SearchIndexer(documents, { warn: (_o, msg) => warnings.push(msg) });
    await indexer.add(account.accountId, 'https://indexer.test/no-markdown', { metadata: { title: 'x' } });
    // Not a UUID: the repository refuses it, the indexer logs and carries on with the next page.
    await indexer.add('not-an-account', 'https://indexer.test/bad', { markdown: 'text', metadata: {} });
    await indexer.add(account.accountId, 'https://indexer.test/ok', { markdown: 'fine text', metadata: {} });
    await indexer.close();
    expect(warnings).toEqual(['indexing a page for search failed']);
    expect(await documents.get(account.accountId, 'https://indexer.test/no-markdown')).toBeNull();
    expect(await documents.get(account.accountId, 'https://indexer.test/ok')).not.toBeNull();
  });

  it('makes add() wait while the backlog is over its character budget (backpressure)', async () => {
    const account = await createTestAccount(db);
    const documents = new DocumentsRepository(db);
    const indexer = new SearchIndexer(documents, { warn: () => undefined }, { maxPendingChars: 10 });
    await indexer.add(account.accountId, 'https://indexer.test/a', {
      markdown: 'first page body',
      metadata: {},
    });
    let second = false;
    const added = indexer
      .add(account.accountId, 'https://indexer.test/b', { markdown: 'second page', metadata: {} })
      .then(() => {
        second = true;
      });
    expect(second).toBe(false); // the first page (15 chars) fills the budget of 10
    await added; // accepted once the first is written
    expect(await documents.get(account.accountId, 'https://indexer.test/a')).not.toBeNull();
    await indexer.idle();
    expect(await documents.get(account.accountId, 'https://indexer.test/b')).not.toBeNull();
  });

  it('writes a backlog in batches; a bad page in a batch fails alone', async () => {
    const account = await createTestAccount(db);
    // The real repository, counting the statements the indexer asks for.
    const documents = new CountingDocuments(db);
    const warnings: Array<{ url?: unknown }> = [];
    const indexer = new SearchIndexer(documents, { warn: (o: { url?: unknown }) => warnings.push(o) });
    const urls = Array.from({ length: 100 }, (_, i) => `https://indexer.test/batch/${i}`);
    for (const [i, url] of urls.entries()) {
      await indexer.add(account.accountId, url, {
        markdown: `Batch page ${i} on heliospheric ${i % 2 ? 'turbulence' : 'Windströmung'}`,
        metadata: { title: `B${i}`, language: i % 2 ? 'en' : 'de' },
      });
      if (i === 50)
        await indexer.add('not-an-account', 'https://indexer.test/batch/bad', {
          markdown: 'x',
          metadata: {},
        });
    }
    await indexer.idle();
    // Pages go out in fewer, larger statements than pages.
    expect(documents.batches.reduce((a, b) => a + b, 0)).toBe(101);
    expect(documents.batches.length).toBeLessThan(20);
    expect(Math.max(...documents.batches)).toBeGreaterThan(1);
    expect(warnings.map((w) => w.url)).toEqual(['https://indexer.test/batch/bad']);
    const hits = await documents.search({ accountId: account.accountId, query: 'heliospheric', limit: 100 });
    expect(hits.map((h) => h.url).sort()).toEqual([...urls].sort());
    // Each page indexed with its own language's configuration.
    expect((await documents.get(account.accountId, urls[0] ?? ''))?.searchConfig).toBe('german');
    expect((await documents.get(account.accountId, urls[1] ?? ''))?.searchConfig).toBe('english');
  });

  it('upsertMany: the last input for a URL wins; a page too long for a tsvector is indexed by its beginning', async () => {
    const account = await createTestAccount(db);
    const documents = new DocumentsRepository(db);
    // ~300k distinct words: more than a tsvector's 1 MB, so the batch falls back page by page.
    const huge = Array.from({ length: 300_000 }, (_, i) => `w${i.toString(36)}x`).join(' ');
    const failed = await documents.upsertMany([
      { accountId: account.accountId, url: 'https://indexer.test/dup', markdown: 'old text', title: 'Old' },
      { accountId: account.accountId, url: 'https://indexer.test/huge', markdown: `zyzzyva ${huge}` },
      { accountId: account.accountId, url: 'https://indexer.test/dup', markdown: 'new text', title: 'New' },
    ]);
    expect(failed).toEqual([]);
    expect((await documents.get(account.accountId, 'https://indexer.test/dup'))?.title).toBe('New');
    const hits = await documents.search({ accountId: account.accountId, query: 'zyzzyva', limit: 5 });
    expect(hits.map((h) => h.url)).toEqual(['https://indexer.test/huge']);
  });

  it('pages handed over within the linger go out in one statement; a lone page is written when it ends, unasked', async () => {
    const account = await createTestAccount(db);
    const documents = new CountingDocuments(db);
    const indexer = new SearchIndexer(documents, { warn: () => undefined }, { lingerMs: 300 });
    for (let i = 0; i < 10; i++)
      await indexer.add(account.accountId, `https://indexer.test/linger/${i}`, {
        markdown: `Linger page ${i}`,
        metadata: {},
      });
    await indexer.idle();
    expect(documents.batches).toEqual([10]);
    // Nobody calls idle(): the page is written once its linger is over.
    await indexer.add(account.accountId, 'https://indexer.test/linger/lone', {
      markdown: 'alone',
      metadata: {},
    });
    const deadline = Date.now() + 30_000; // a safety net: the write follows the 300 ms linger
    while (!(await documents.get(account.accountId, 'https://indexer.test/linger/lone'))) {
      if (Date.now() > deadline) throw new Error('the lone page was never written');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(documents.batches).toEqual([10, 1]);
  });

  it('idle() and close() do not wait out the linger', async () => {
    const account = await createTestAccount(db);
    const documents = new DocumentsRepository(db);
    // Ten minutes: jest's timeout (60 s) ends the test first if idle() or close() waits for it, while
    // two writes fit that whatever the machine's load.
    const indexer = new SearchIndexer(documents, { warn: () => undefined }, { lingerMs: 600_000 });
    await indexer.add(account.accountId, 'https://indexer.test/linger/now', {
      markdown: 'now',
      metadata: {},
    });
    await indexer.idle();
    expect(await documents.get(account.accountId, 'https://indexer.test/linger/now')).toBeTruthy();
    await indexer.add(account.accountId, 'https://indexer.test/linger/close', {
      markdown: 'closing',
      metadata: {},
    });
    await indexer.close();
    expect(await documents.get(account.accountId, 'https://indexer.test/linger/close')).toBeTruthy();
  });
});
