import { createServer } from 'node:net';
import { SearchProviderError } from '@wcs/errors';
import { type SearxngFixture, startSearxngFixture } from '@wcs/testing';
import { SearxngProvider, searxngLanguage } from './searxng.provider';

let fx: SearxngFixture;
beforeAll(async () => {
  fx = await startSearxngFixture();
});
afterAll(() => fx.close());
beforeEach(() => {
  fx.requests.length = 0;
});

const results = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    url: `https://site${i}.example/page`,
    title: `Result ${i}`,
    content: `About result ${i}`,
  }));
const provider = (timeoutMs = 2_000) => new SearxngProvider({ baseUrl: fx.url, timeoutMs });
const q = { query: 'tidal energy', numResults: 5, accountId: 'a' };

/** The error a failing search throws (fails the test if it resolves). */
async function failure(p: Promise<unknown>): Promise<SearchProviderError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SearchProviderError);
  return err as SearchProviderError;
}

describe('SearxngProvider', () => {
  it('maps SearXNG JSON results and sends q, format=json, pageno and language', async () => {
    fx.configure({ results: results(3) });
    const hits = await provider().search({ ...q, lang: 'de', country: 'ch' });
    expect(hits).toEqual([
      { url: 'https://site0.example/page', title: 'Result 0', description: 'About result 0' },
      { url: 'https://site1.example/page', title: 'Result 1', description: 'About result 1' },
      { url: 'https://site2.example/page', title: 'Result 2', description: 'About result 2' },
    ]);
    expect(fx.requests[0]).toMatchObject({
      q: 'tidal energy',
      format: 'json',
      pageno: '1',
      language: 'de-CH',
    });
  });

  it('pages until numResults, de-duplicating URLs and skipping malformed or non-http results', async () => {
    const list = [
      ...results(3),
      { url: 'https://site0.example/page#again', title: 'dup', content: '' },
      { url: 'javascript:alert(1)', title: 'bad', content: '' },
      ...results(12).slice(3),
    ];
    fx.configure({ results: list, perPage: 4 });
    const hits = await provider().search({ ...q, numResults: 8 });
    expect(hits.map((h) => h.title)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => `Result ${i}`));
    expect(fx.requests.map((r) => r.pageno)).toEqual(['1', '2', '3']);
  });

  it('stops paging when a page brings nothing new; no language parameter without lang', async () => {
    fx.configure({ results: results(2), perPage: 10 });
    const hits = await provider().search({ ...q, numResults: 10, country: 'us' });
    expect(hits).toHaveLength(2);
    expect(fx.requests).toHaveLength(2);
    expect(fx.requests[0]?.language).toBeUndefined();
  });

  it('maps lang and country to SearXNG locales', () => {
    expect(searxngLanguage('en', 'gb')).toBe('en-GB');
    expect(searxngLanguage('pt-BR', 'pt')).toBe('pt-BR');
    expect(searxngLanguage('fr')).toBe('fr');
    expect(searxngLanguage(undefined, 'de')).toBeUndefined();
  });

  it('json format disabled: a 502 naming SEARXNG_URL and the setting to change', async () => {
    fx.configure({ jsonDisabled: true });
    const err = await failure(provider().search(q));
    expect(err.status).toBe(502);
    expect(err.code).toBe('SEARCH_PROVIDER_FAILED');
    expect(err.message).toContain(`SEARXNG_URL=${fx.url}`);
    expect(err.message).toContain('search.formats');
  });

  it('an HTML page, a limiter and failing engines are clear errors, not empty results', async () => {
    fx.configure({ html: true });
    expect((await failure(provider().search(q))).message).toMatch(/did not answer JSON.*SEARXNG_URL/);
    fx.configure({ rateLimited: true });
    expect((await failure(provider().search(q))).message).toContain('HTTP 429');
    fx.configure({ enginesDown: true });
    expect((await failure(provider().search(q))).message).toContain('duckduckgo');
    // No results and no failing engine: genuinely nothing found.
    fx.configure({ results: [] });
    expect(await provider().search(q)).toEqual([]);
  });

  it('a wrong path is a 404 hint, a closed port is "unreachable", a slow instance times out', async () => {
    fx.configure({ results: results(1) });
    const wrongPath = new SearxngProvider({ baseUrl: `${fx.url}/nothing/here`, timeoutMs: 2_000 });
    expect((await failure(wrongPath.search(q))).message).toContain('HTTP 404');

    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const closed = new SearxngProvider({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2_000 });
    const err = await failure(closed.search(q));
    expect(err.message).toContain(`SEARXNG_URL=http://127.0.0.1:${port}`);
    expect(err.message).toMatch(/unreachable \(ECONNREFUSED\)/);

    fx.configure({ results: results(1), delayMs: 1_500 });
    // Its own 300 ms budget ended it (the fixture answers after 1.5 s): the message names it.
    expect((await failure(provider(300).search(q))).message).toContain('did not answer within 300 ms');
  });
});
