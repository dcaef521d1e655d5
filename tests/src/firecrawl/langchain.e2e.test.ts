/**
 * LangChain's `FireCrawlLoader` with `apiUrl = <gateway>/firecrawl`, in the two
 * published lines people use:
 *
 * - `@langchain/community` 1.1.29 with `@mendable/firecrawl-js` 4.42.0 (the `tests` package's pins).
 *   The loader builds the SDK's default export (the v2 client), calls its `scrapeUrl` / `crawlUrl` /
 *   `mapUrl` aliases and checks `response.success` — a v1-era check. Scrape mode works because the
 *   v2 scrape `data` here also carries `success`; the v2 client's crawl and map results are objects
 *   the SDK builds itself, without `success`, so with these versions crawl and map mode fail in the
 *   loader whatever the server answers (also against Firecrawl's cloud). Checked here, so a fixed
 *   release shows.
 * - `@langchain/community` 0.3.59 with its declared peers `@mendable/firecrawl-js` 1.20.0 (`^1.4.3`,
 *   default export = the v1 client) and `@langchain/core` 0.3.80, installed in their own workspace
 *   package (tests/langchain-0.3: one package cannot pin two versions of a name). Loaded with that
 *   package's `require`, so the loader's own `require('@mendable/firecrawl-js')` gets 1.20.0. This
 *   combination works in all three modes, through `/firecrawl/v1`.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { FireCrawlLoader } from '@langchain/community/document_loaders/web/firecrawl';
import { fixtureArticle } from '@wcs/testing';
import { balanceOf } from '../harness';
import { type FirecrawlStack, HOME_TITLE, startFirecrawlStack } from './firecrawl-stack';

/** The 0.3 loader as a test uses it (its own types live in that package, outside this program). */
interface LoaderDocument {
  pageContent: string;
  metadata: Record<string, unknown>;
}
type Loader03 = new (params: {
  url: string;
  apiKey: string;
  apiUrl: string;
  mode: 'scrape' | 'crawl' | 'map';
  params?: Record<string, unknown>;
}) => { load(): Promise<LoaderDocument[]> };

const LOADER_PATH = '@langchain/community/document_loaders/web/firecrawl';
const requireFrom03 = createRequire(join(__dirname, '../../langchain-0.3/package.json'));

function loader03(): Loader03 {
  const mod = requireFrom03(LOADER_PATH) as { FireCrawlLoader?: unknown };
  if (typeof mod.FireCrawlLoader !== 'function') throw new Error(`${LOADER_PATH}: no FireCrawlLoader class`);
  return mod.FireCrawlLoader as Loader03;
}

/** `version` of a package as the 0.3 loader module itself resolves it. */
function versionSeenByLoader03(name: string): string {
  const fromLoader = createRequire(requireFrom03.resolve(LOADER_PATH));
  return (fromLoader(`${name}/package.json`) as { version: string }).version;
}

let s: FirecrawlStack;

beforeAll(async () => {
  s = await startFirecrawlStack();
});
afterAll(async () => {
  await s?.close();
});

describe('@langchain/community 1.1.29 on @mendable/firecrawl-js 4.42.0 (v2 client)', () => {
  it('scrape mode loads one Document with the page markdown and its metadata', async () => {
    const before = await balanceOf(s.account.accountId);
    const loader = new FireCrawlLoader({
      url: `${s.site.url}/`,
      apiKey: s.apiKey,
      apiUrl: s.apiUrl,
      mode: 'scrape',
      params: { formats: ['markdown'] },
    });
    const docs = await loader.load();
    expect(docs).toHaveLength(1);
    expect(docs[0]?.pageContent).toContain(HOME_TITLE);
    expect(docs[0]?.metadata).toMatchObject({ title: HOME_TITLE, statusCode: 200 });
    expect(await balanceOf(s.account.accountId)).toBe(before - 1);
  });

  it('crawl mode: the service runs the crawl, the loader rejects the SDK result (no `success`)', async () => {
    const before = await balanceOf(s.account.accountId);
    const loader = new FireCrawlLoader({
      url: `${s.site.url}/tree`,
      apiKey: s.apiKey,
      apiUrl: s.apiUrl,
      mode: 'crawl',
      params: { limit: 3, pollInterval: 1 },
    });
    await expect(loader.load()).rejects.toThrow('Firecrawl: Failed to crawl URL. Error: undefined');
    // The crawl itself completed and was billed: the failure is the loader's check, not the service.
    expect(await balanceOf(s.account.accountId)).toBe(before - 3);
  });

  it('map mode: rejected by the loader for the same reason', async () => {
    const loader = new FireCrawlLoader({
      url: `${s.site.url}/`,
      apiKey: s.apiKey,
      apiUrl: s.apiUrl,
      mode: 'map',
      params: { limit: 5 },
    });
    await expect(loader.load()).rejects.toThrow('Firecrawl: Failed to map URL. Error: undefined');
  });
});

describe('@langchain/community 0.3.59 on @mendable/firecrawl-js 1.20.0 (as published)', () => {
  it('the loader resolves its declared peers, not the tests package pins', () => {
    expect(versionSeenByLoader03('@mendable/firecrawl-js')).toBe('1.20.0');
    expect(versionSeenByLoader03('@langchain/core')).toBe('0.3.80');
  });

  it('scrape mode loads the page markdown with sourceURL and title, 1 credit', async () => {
    const Loader = loader03();
    const before = await balanceOf(s.account.accountId);
    const url = `${s.site.url}/article/4`;
    const docs = await new Loader({
      url,
      apiKey: s.apiKey,
      apiUrl: s.apiUrl,
      mode: 'scrape',
      params: { formats: ['markdown'] },
    }).load();
    const article = fixtureArticle(4);
    expect(docs).toHaveLength(1);
    expect(docs[0]?.pageContent).toContain(article.title);
    expect(docs[0]?.pageContent).toContain(article.paragraphs[0]?.slice(0, 60));
    expect(docs[0]?.metadata).toMatchObject({ sourceURL: url, title: article.title, statusCode: 200 });
    expect(await balanceOf(s.account.accountId)).toBe(before - 1);
  });

  it('crawl mode loads one Document per page of the tree, 1 credit each', async () => {
    const Loader = loader03();
    const before = await balanceOf(s.account.accountId);
    // One hop below /tree: the root and its three children (the fixture tree branches by 3).
    const docs = await new Loader({
      url: `${s.site.url}/tree`,
      apiKey: s.apiKey,
      apiUrl: s.apiUrl,
      mode: 'crawl',
      params: { limit: 10, maxDepth: 1, scrapeOptions: { formats: ['markdown'] } },
    }).load();
    const pages = [
      { path: '/tree', title: 'Tree node root' },
      { path: '/tree/1', title: 'Tree node 1' },
      { path: '/tree/2', title: 'Tree node 2' },
      { path: '/tree/3', title: 'Tree node 3' },
    ];
    expect(docs.map((d) => d.metadata.sourceURL).sort()).toEqual(pages.map((p) => `${s.site.url}${p.path}`));
    for (const p of pages) {
      const doc = docs.find((d) => d.metadata.sourceURL === `${s.site.url}${p.path}`);
      expect(doc?.metadata).toMatchObject({ title: p.title, statusCode: 200 });
      expect(doc?.pageContent).toContain(`This is ${p.title}, a page of the crawl fixture.`);
    }
    expect(await balanceOf(s.account.accountId)).toBe(before - 4);
  });

  it('map mode loads one Document per URL (the URL as JSON), 1 credit', async () => {
    const Loader = loader03();
    const before = await balanceOf(s.account.accountId);
    const docs = await new Loader({
      url: `${s.site.url}/`,
      apiKey: s.apiKey,
      apiUrl: s.apiUrl,
      mode: 'map',
      params: { limit: 200 },
    }).load();
    const urls = docs.map((d) => JSON.parse(d.pageContent) as unknown);
    expect(urls).toEqual(expect.arrayContaining([`${s.site.url}/article/0`, `${s.site.url}/article/4`]));
    for (const u of urls) expect(String(u).startsWith(`${s.site.url}/`)).toBe(true);
    expect(new Set(urls).size).toBe(urls.length);
    expect(await balanceOf(s.account.accountId)).toBe(before - 1);
  });
});
