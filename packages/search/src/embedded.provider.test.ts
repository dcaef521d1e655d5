import { rawEnv } from '@wcs/config';
import { AccountsRepository, createDb, type Db, DocumentsRepository, migrateDatabase } from '@wcs/db';
import { EmbeddedProvider } from './embedded.provider';

let db: Db;
let documents: DocumentsRepository;
let provider: EmbeddedProvider;
let alice: string;
let bob: string;

const md = (...paragraphs: string[]) => paragraphs.join('\n\n');

beforeAll(async () => {
  const url = rawEnv('DATABASE_URL') ?? 'postgresql://postgres@127.0.0.1:5432/wcs_test';
  await migrateDatabase(url);
  db = createDb(url, { poolSize: 3 });
  documents = new DocumentsRepository(db);
  provider = new EmbeddedProvider(documents, { timeoutMs: 5_000 });
  const accounts = new AccountsRepository(db);
  alice = (await accounts.create({ plan: 'free', credits: 0 })).accountId;
  bob = (await accounts.create({ plan: 'free', credits: 0 })).accountId;

  await documents.upsert({
    accountId: alice,
    url: 'https://en.example/running',
    title: 'Running shoes for marathons',
    description: 'How we tested shoes',
    markdown: md(
      '# Running shoes',
      'Runners who ran three marathons compared the cushioning of [twelve models](https://en.example/models).',
      'The lightest shoe was also the most durable one.',
    ),
    language: 'en',
  });
  await documents.upsert({
    accountId: alice,
    url: 'https://en.example/baking',
    title: 'Sourdough baking',
    description: null,
    markdown: 'A starter needs flour and water. Marathons are not mentioned in the body of this page.',
    language: 'en-US',
  });
  await documents.upsert({
    accountId: alice,
    url: 'https://de.example/haeuser',
    title: 'Alte Häuser in der Stadt',
    description: 'Ein Rundgang',
    markdown: 'Die Häuser der Altstadt wurden im Mittelalter gebaut. Jedes Haus hat eine Geschichte.',
    language: 'de-AT',
  });
  await documents.upsert({
    accountId: alice,
    url: 'https://fr.example/chevaux',
    title: 'Les chevaux sauvages',
    description: null,
    markdown: 'Les chevaux sauvages de Camargue vivent dans les marais.',
    language: 'fr',
  });
  await documents.upsert({
    accountId: alice,
    url: 'https://unknown.example/',
    title: 'Zxqv glossary',
    description: null,
    markdown: 'The word zxqv appears on a page without a declared language.',
    language: null,
  });
  // Bob's page matches the same words: it must never show up for Alice (and vice versa).
  await documents.upsert({
    accountId: bob,
    url: 'https://bob.example/running',
    title: 'Running shoes, Bob edition',
    description: null,
    markdown: 'Marathon running shoes and more marathons.',
    language: 'en',
  });
});
afterAll(() => db.close());

const search = (accountId: string, query: string, extra: { lang?: string; numResults?: number } = {}) =>
  provider.search({
    accountId,
    query,
    numResults: extra.numResults ?? 5,
    ...(extra.lang ? { lang: extra.lang } : {}),
  });

describe('EmbeddedProvider (PostgreSQL full-text index)', () => {
  it('stems English (run → Running/ran), ranks the title match first, snippets without markup', async () => {
    const hits = await search(alice, 'marathon run');
    expect(hits.map((h) => h.url)).toEqual(['https://en.example/running']);
    const hit = hits[0]!;
    expect(hit.title).toBe('Running shoes for marathons');
    expect(hit.description).toContain('marathons compared the cushioning of twelve models');
    expect(hit.description).not.toMatch(/[[\]()#]/);
    // Title (A) outranks body (C): both pages mention marathons, the title match comes first.
    const both = await search(alice, 'marathons');
    expect(both.map((h) => h.url)).toEqual(['https://en.example/running', 'https://en.example/baking']);
  });

  it("only the calling account's pages are searched", async () => {
    const forBob = await search(bob, 'running shoes');
    expect(forBob.map((h) => h.url)).toEqual(['https://bob.example/running']);
    const forAlice = await search(alice, 'Bob edition');
    expect(forAlice).toEqual([]);
  });

  it('German and French pages are matched by their own stemmers, with or without lang', async () => {
    // "Haus" matches "Häuser"/"Haus" only through the german configuration.
    expect((await search(alice, 'Haus')).map((h) => h.url)).toEqual(['https://de.example/haeuser']);
    expect((await search(alice, 'cheval sauvage', { lang: 'fr' })).map((h) => h.url)).toEqual([
      'https://fr.example/chevaux',
    ]);
  });

  it('lang keeps pages of that language and of unknown language only', async () => {
    expect(await search(alice, 'Haus', { lang: 'en' })).toEqual([]);
    expect((await search(alice, 'zxqv', { lang: 'en' })).map((h) => h.url)).toEqual([
      'https://unknown.example/',
    ]);
    expect((await search(alice, 'zxqv', { lang: 'ja' })).map((h) => h.url)).toEqual([
      'https://unknown.example/',
    ]);
  });

  it('web-search syntax: quoted phrases and exclusions; numResults caps', async () => {
    expect(await search(alice, '"models twelve"')).toEqual([]);
    expect((await search(alice, '"twelve models"')).map((h) => h.url)).toEqual([
      'https://en.example/running',
    ]);
    expect((await search(alice, 'marathons -sourdough')).map((h) => h.url)).toEqual([
      'https://en.example/running',
    ]);
    expect(await search(alice, 'marathons', { numResults: 1 })).toHaveLength(1);
    expect(await search(alice, 'the and of')).toEqual([]);
  });

  it('re-indexing a URL replaces its entry', async () => {
    const url = 'https://en.example/changing';
    await documents.upsert({
      accountId: alice,
      url,
      title: 'Version one',
      markdown: 'quokka',
      language: 'en',
    });
    await documents.upsert({
      accountId: alice,
      url,
      title: 'Version two',
      markdown: 'wombat',
      language: 'en',
    });
    expect(await search(alice, 'quokka')).toEqual([]);
    expect((await search(alice, 'wombat')).map((h) => h.title)).toEqual(['Version two']);
    expect((await documents.get(alice, url))?.searchConfig).toBe('english');
  });

  it('a huge page of distinct words is still indexed (tsvector size limit handled)', async () => {
    const words = Array.from({ length: 120_000 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`);
    const url = 'https://en.example/huge';
    await documents.upsert({
      accountId: alice,
      url,
      title: 'Huge glossary',
      markdown: words.join(' '),
      language: null,
    });
    expect((await search(alice, 'glossary huge')).map((h) => h.url)).toContain(url);
  });
});
