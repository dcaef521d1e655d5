import { createSafeDispatcher } from '@wcs/net';
import { testCrawlOptions } from '@wcs/testing';
import { LinkFilter, NOT_A_PAGE } from './link-filter';
import { RobotsCache } from './robots-cache';

describe('NOT_A_PAGE (links a crawl does not follow)', () => {
  it.each(['/report.pdf', '/Report.PDF', '/letters/offer.docx', '/about', '/blog/post.html', '/page.php'])(
    '%s is followed',
    (path) => {
      expect(NOT_A_PAGE.test(path)).toBe(false);
    },
  );

  it.each(['/logo.png', '/archive.zip', '/old.doc', '/sheet.xlsx', '/deck.pptx', '/app.js', '/data.csv'])(
    '%s is not followed',
    (path) => {
      expect(NOT_A_PAGE.test(path)).toBe(true);
    },
  );
});

describe('LinkFilter.accept', () => {
  const options = testCrawlOptions({ maxPages: 100, maxDepth: 3 });
  const robots = new RobotsCache({
    dispatcher: createSafeDispatcher({ allowPrivateTargets: false, connectTimeoutMs: 1_000 }),
    userAgent: 'test',
    timeoutMs: 1_000,
  });
  const link = (path: string) => ({ url: `https://a.test${path}`, key: `https://a.test${path}` });

  it('leaves out the keys the frontier has already, without counting them toward the cap', async () => {
    const filter = new LinkFilter(
      { crawlId: 'c1', crawlUrl: 'https://a.test/', robotsTxt: null, options },
      robots,
    );
    const found = ['/nav/1', '/nav/2', '/nav/3', '/new/1', '/new/2', '/new/3'].map(link);
    const known = new Set(['/nav/1', '/nav/2', '/nav/3'].map((p) => link(p).key));
    expect((await filter.accept(found, 2, known)).map((l) => l.url)).toEqual([
      link('/new/1').url,
      link('/new/2').url,
    ]);
    expect((await filter.accept(found, 2)).map((l) => l.url)).toEqual([
      link('/nav/1').url,
      link('/nav/2').url,
    ]);
  });

  it('remembers what it refused by the URL alone, and gives the same answers from the memo', async () => {
    const filter = new LinkFilter(
      {
        crawlId: 'c2',
        crawlUrl: 'https://a.test/',
        robotsTxt: null,
        options: testCrawlOptions({ maxPages: 100, maxDepth: 3, excludePaths: ['^/private/'] }),
      },
      robots,
    );
    const found = [
      { url: 'https://elsewhere.test/a', key: 'https://elsewhere.test/a' },
      link('/logo.png'),
      link('/private/x'),
      link('/ok/1'),
      link('/ok/2'),
    ];
    const first = (await filter.accept(found, 10)).map((l) => l.url);
    expect(first).toEqual([link('/ok/1').url, link('/ok/2').url]);
    expect(filter.refusedCount).toBe(3);
    // The next page carries the same links: the same verdicts, nothing new to remember.
    expect((await filter.accept([...found].reverse(), 10)).map((l) => l.url)).toEqual([
      link('/ok/2').url,
      link('/ok/1').url,
    ]);
    expect(filter.refusedCount).toBe(3);
  });

  it('remembers other sites by origin: one entry for all their URLs, same-site URLs still judged', async () => {
    const filter = new LinkFilter(
      { crawlId: 'c3', crawlUrl: 'https://a.test/', robotsTxt: null, options },
      robots,
    );
    const other = Array.from({ length: 50 }, (_, i) => ({
      url: `https://elsewhere.test/post/${i}`,
      key: `https://elsewhere.test/post/${i}`,
    }));
    const tricky = [
      // Another port is another site; the same host on its default port is not.
      { url: 'https://a.test:8443/x', key: 'https://a.test:8443/x' },
      // A backslash ends the authority (WHATWG): the host is elsewhere.test, not a.test.
      { url: 'https://elsewhere.test\\@a.test/y', key: 'https://elsewhere.test\\@a.test/y' },
      { url: 'https://www.a.test/www', key: 'https://www.a.test/www' },
      link('/x'),
    ];
    const accepted = (await filter.accept([...other, ...tricky], 100)).map((l) => l.url);
    expect(accepted).toEqual(['https://www.a.test/www', link('/x').url]);
    // elsewhere.test, a.test:8443 and the backslash URL's origin as written.
    expect(filter.refusedCount).toBe(3);
    // Asked again (the memo answers), the verdicts are the same.
    expect((await filter.accept([...tricky, ...other], 100)).map((l) => l.url)).toEqual(accepted);
    expect(filter.refusedCount).toBe(3);
  });
});
