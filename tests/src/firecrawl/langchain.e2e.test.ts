/**
 * LangChain's `FireCrawlLoader` (`@langchain/community` 1.1.29) with `apiUrl = <gateway>/firecrawl`
 * (issue 16). The loader builds the SDK's default export (`@mendable/firecrawl-js` 4.42.0: the v2
 * client) with `{ apiKey, apiUrl }`, calls its `scrapeUrl` / `crawlUrl` / `mapUrl` aliases and then
 * checks `response.success` — a v1-era check. Scrape mode works because the v2 scrape `data` here
 * also carries `success`; the v2 client's crawl and map results are objects the SDK builds itself,
 * without `success`, so with these pinned versions crawl and map mode fail in the loader whatever
 * the server answers (checked here, so a fixed release shows). The same loader code on the SDK's v1
 * client (what LangChain was written for) loads documents in every mode through `/firecrawl/v1`.
 */
import { FireCrawlLoader } from '@langchain/community/document_loaders/web/firecrawl';
import { fixtureArticle } from '@wcs/testing';
import { balanceOf } from '../harness';
import { type FirecrawlStack, HOME_TITLE, startFirecrawlStack } from './firecrawl-stack';

type LoaderClass = typeof FireCrawlLoader;

let s: FirecrawlStack;

beforeAll(async () => {
  s = await startFirecrawlStack();
});
afterAll(async () => {
  await s?.close();
});

/** The loader module loaded with the SDK's default export replaced by its own v1 client. */
function loaderOnV1Sdk(): LoaderClass {
  let Loader: LoaderClass | undefined;
  jest.isolateModules(() => {
    jest.doMock('@mendable/firecrawl-js', () => {
      const actual = jest.requireActual<Record<string, unknown>>('@mendable/firecrawl-js');
      return { ...actual, __esModule: true, default: actual.FirecrawlAppV1 };
    });
    Loader = (
      jest.requireActual('@langchain/community/document_loaders/web/firecrawl') as {
        FireCrawlLoader: LoaderClass;
      }
    ).FireCrawlLoader;
    jest.dontMock('@mendable/firecrawl-js');
  });
  if (!Loader) throw new Error('loader module did not load');
  return Loader;
}

describe('pinned versions (loader on the v2 SDK client)', () => {
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

describe('the same loader on the SDK v1 client (through /firecrawl/v1)', () => {
  it('scrape mode', async () => {
    const Loader = loaderOnV1Sdk();
    const docs = await new Loader({
      url: `${s.site.url}/article/4`,
      apiKey: s.apiKey,
      apiUrl: s.apiUrl,
      mode: 'scrape',
      params: { formats: ['markdown'] },
    }).load();
    expect(docs).toHaveLength(1);
    expect(docs[0]?.pageContent).toContain(fixtureArticle(4).title);
    expect(docs[0]?.metadata.sourceURL ?? docs[0]?.metadata.url).toBe(`${s.site.url}/article/4`);
  });

  it('crawl mode loads one Document per crawled page', async () => {
    const Loader = loaderOnV1Sdk();
    const before = await balanceOf(s.account.accountId);
    const docs = await new Loader({
      url: `${s.site.url}/tree`,
      apiKey: s.apiKey,
      apiUrl: s.apiUrl,
      mode: 'crawl',
      params: { limit: 4, scrapeOptions: { formats: ['markdown'] } },
    }).load();
    expect(docs).toHaveLength(4);
    for (const d of docs) {
      expect(d.pageContent).toContain('Tree node');
      expect(String(d.metadata.sourceURL ?? d.metadata.url)).toContain('/tree');
    }
    expect(await balanceOf(s.account.accountId)).toBe(before - 4);
  });

  it('map mode loads one Document per URL', async () => {
    const Loader = loaderOnV1Sdk();
    const docs = await new Loader({
      url: `${s.site.url}/`,
      apiKey: s.apiKey,
      apiUrl: s.apiUrl,
      mode: 'map',
      params: { search: 'article', limit: 20 },
    }).load();
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.map((d) => JSON.parse(d.pageContent) as string)).toEqual(
      expect.arrayContaining([`${s.site.url}/article/0`]),
    );
  });
});
