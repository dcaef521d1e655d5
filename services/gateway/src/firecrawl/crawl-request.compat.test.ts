import { compilePathRules } from '@wcs/discovery';
import { firecrawlCrawlV1, firecrawlCrawlV2, toNativeCrawlV1, toNativeCrawlV2 } from './crawl-request.compat';

const v2 = (body: Record<string, unknown>) => toNativeCrawlV2(firecrawlCrawlV2.parse(body)).body;
const v1 = (body: Record<string, unknown>) => toNativeCrawlV1(firecrawlCrawlV1.parse(body)).body;

describe('Firecrawl crawl request → native crawl body', () => {
  it('renames the v2 options and uses Firecrawl defaults for the limits', () => {
    expect(
      v2({
        url: 'https://a.test/',
        limit: 7,
        maxDiscoveryDepth: 2,
        delay: 1.5,
        sitemap: 'skip',
        ignoreQueryParameters: true,
        allowSubdomains: true,
        ignoreRobotsTxt: true,
        excludePaths: ['^/x'],
        scrapeOptions: { formats: ['markdown', 'html'], onlyMainContent: false, includeTags: ['main'] },
        webhook: 'https://hooks.test/h',
        origin: 'js-sdk@4.42.0',
      }),
    ).toEqual({
      url: 'https://a.test/',
      maxPages: 7,
      maxDepth: 2,
      delayMs: 1500,
      sitemap: 'skip',
      ignoreQueryParameters: true,
      allowSubdomains: true,
      ignoreRobotsTxt: true,
      excludePaths: ['^/x'],
      onlyMainContent: false,
      // Firecrawl v2's page cache default (2 days), with and without scrapeOptions.
      scrapeOptions: { formats: ['markdown', 'html'], includeTags: ['main'], maxAge: 172_800_000 },
      webhook: 'https://hooks.test/h',
    });
    expect(v2({ url: 'https://a.test/' })).toEqual({
      url: 'https://a.test/',
      maxPages: 10_000,
      maxDepth: 1_000,
      scrapeOptions: { maxAge: 172_800_000 },
    });
  });

  it('keeps a crawl below the start path unless crawlEntireDomain, and-ing the caller’s includePaths', () => {
    expect(v2({ url: 'https://a.test/docs/v1' }).includePaths).toEqual(['^\\/docs\\/v1']);
    expect(v2({ url: 'https://a.test/docs/v1', crawlEntireDomain: true }).includePaths).toBeUndefined();
    const rules = v2({ url: 'https://a.test/docs/', includePaths: ['guide', '^/docs/api$'] })
      .includePaths as string[];
    const pass = compilePathRules({ includePaths: rules });
    expect(pass('https://a.test/docs/guide/1')).toBe(true);
    expect(pass('https://a.test/docs/api')).toBe(true);
    expect(pass('https://a.test/guide')).toBe(false); // matches the pattern, outside /docs/
    expect(pass('https://a.test/docs/other')).toBe(false); // inside /docs/, matches no pattern
  });

  it('translates v1 names (maxDepth, ignoreSitemap, allowBackwardLinks)', () => {
    expect(
      v1({ url: 'https://a.test/blog/', maxDepth: 3, ignoreSitemap: true, allowBackwardLinks: true }),
    ).toEqual({ url: 'https://a.test/blog/', maxPages: 10_000, maxDepth: 3, sitemap: 'skip' });
    expect(v1({ url: 'https://a.test/blog/', maxDepth: 3, maxDiscoveryDepth: 1 }).maxDepth).toBe(1);
  });

  it('passes allowExternalLinks (v1 and v2) and sitemap "only" (v2) through', () => {
    expect(v2({ url: 'https://a.test/', allowExternalLinks: true, sitemap: 'only' })).toMatchObject({
      allowExternalLinks: true,
      sitemap: 'only',
    });
    expect(v2({ url: 'https://a.test/', sitemap: 'include' })).not.toHaveProperty('sitemap');
    expect(v1({ url: 'https://a.test/', allowExternalLinks: true })).toMatchObject({
      allowExternalLinks: true,
    });
    expect(v1({ url: 'https://a.test/', allowExternalLinks: false })).toMatchObject({
      allowExternalLinks: false,
    });
  });

  it('refuses what it cannot honour, naming the option', () => {
    const refused = (body: Record<string, unknown>, field: RegExp) =>
      expect(() => v2({ url: 'https://a.test/', ...body })).toThrow(field);
    refused({ maxConcurrency: 2 }, /^maxConcurrency: /);
    refused({ prompt: 'docs only' }, /^prompt: /);
    refused({ regexOnFullURL: true }, /^regexOnFullURL: /);
    refused({ deduplicateSimilarURLs: true }, /^deduplicateSimilarURLs: /);
    refused({ scrapeOptions: { waitFor: 500 } }, /^scrapeOptions\.waitFor: /);
    refused({ scrapeOptions: { timeout: 5000 } }, /^scrapeOptions\.timeout: /);
    refused({ scrapeOptions: { formats: [{ type: 'json', prompt: 'x' }] } }, /^scrapeOptions\.formats\.0: /);
    // Off values are what the service does anyway: accepted.
    expect(() =>
      v2({ url: 'https://a.test/', allowExternalLinks: false, regexOnFullURL: false }),
    ).not.toThrow();
  });
});
